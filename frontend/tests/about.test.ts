import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { BACKGROUND_PANIC, toBackgroundPanic } from '@/api/about'
import AboutDialog from '@/components/settings/AboutDialog.vue'
import AboutSection from '@/components/settings/AboutSection.vue'
import { useBackgroundPanics } from '@/composables/useBackgroundPanics'
import { useToastStore } from '@/stores/toasts'
import { flush, testI18n } from './helpers'

const handlers = new Map<string, (data?: unknown) => void>()
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, cb: (data?: unknown) => void) => {
    handlers.set(name, cb)
    return () => handlers.delete(name)
  }),
  BrowserOpenURL: vi.fn(),
}))

const about = {
  version: '0.3.0',
  goVersion: 'go1.25.4',
  wailsVersion: 'v2.13.0',
  platform: 'linux/amd64',
  dataDir: '/home/u/.local/share/playchat',
  logFile: '/home/u/.local/share/playchat/logs/playchat.log',
  changelog: '/usr/share/doc/playchat/CHANGELOG.md',
}
const system = vi.hoisted(() => ({
  About: vi.fn(),
  OpenLogFolder: vi.fn(),
  OpenDataFolder: vi.fn(),
}))
vi.mock('../wailsjs/go/app/SystemService', () => system)

beforeEach(() => {
  setActivePinia(createPinia())
  handlers.clear()
  system.About.mockReset().mockResolvedValue({ ...about })
  system.OpenLogFolder.mockReset().mockResolvedValue(undefined)
  system.OpenDataFolder.mockReset().mockResolvedValue(undefined)
  document.body.innerHTML = ''
})

const dialog = () => document.body.querySelector('[data-testid="about-dialog"]')
const text = (sel: string) => document.body.querySelector(sel)?.textContent?.trim() ?? ''

describe('AboutDialog', () => {
  it('shows the version, the Wails and Go versions, the data folder, the log file and the changelog', async () => {
    mount(AboutDialog, { props: { open: true }, global: { plugins: [testI18n('en')] }, attachTo: document.body })
    await flush()
    expect(text('[data-testid="about-version"]')).toBe('0.3.0')
    expect(dialog()?.textContent).toContain('v2.13.0')
    expect(dialog()?.textContent).toContain('go1.25.4')
    expect(text('[data-testid="about-data-dir"]')).toBe(about.dataDir)
    expect(text('[data-testid="about-log-file"]')).toBe(about.logFile)
    expect(text('[data-testid="about-changelog"]')).toBe(about.changelog)
    expect(dialog()?.textContent).toContain('stays in this folder when you upgrade or uninstall')
  })

  it('names CHANGELOG.md in the release files when none is installed, in Japanese too', async () => {
    system.About.mockResolvedValue({ ...about, changelog: '', wailsVersion: '' })
    mount(AboutDialog, { props: { open: true }, global: { plugins: [testI18n('ja')] }, attachTo: document.body })
    await flush()
    expect(text('[data-testid="about-changelog"]')).toBe('CHANGELOG.md（配布ファイルに同梱）')
    expect(dialog()?.textContent).toContain('playchat について')
    expect(dialog()?.textContent).toContain('不明') // no Wails version in the build info
  })

  it('closes with Esc and asks nothing while closed', async () => {
    const w = mount(AboutDialog, { props: { open: false }, global: { plugins: [testI18n('en')] }, attachTo: document.body })
    await flush()
    expect(dialog()).toBeNull()
    expect(system.About).not.toHaveBeenCalled()
    await w.setProps({ open: true })
    await flush()
    dialog()!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(w.emitted('close')).toHaveLength(1)
  })
})

describe('Settings: About playchat and the folders', () => {
  it('opens the About box, the log folder and the data folder', async () => {
    const w = mount(AboutSection, { global: { plugins: [testI18n('en')] }, attachTo: document.body })
    expect(w.get('[data-testid="open-about"]').text()).toBe('About playchat')
    await w.get('[data-testid="open-about"]').trigger('click')
    await flush()
    expect(text('[data-testid="about-version"]')).toBe('0.3.0')
    await w.get('[data-testid="open-log-folder"]').trigger('click')
    await w.get('[data-testid="open-data-folder"]').trigger('click')
    expect(system.OpenLogFolder).toHaveBeenCalledTimes(1)
    expect(system.OpenDataFolder).toHaveBeenCalledTimes(1)
  })

  it('shows a folder that cannot be opened as a toast in the UI language', async () => {
    system.OpenLogFolder.mockRejectedValue(
      JSON.stringify({
        code: 'system.openFolder',
        params: { path: '/d/logs' },
        message: 'cannot open the folder /d/logs in the file manager: exec: "xdg-open": executable file not found in $PATH',
      }),
    )
    const w = mount(AboutSection, { global: { plugins: [testI18n('ja')] } })
    await w.get('[data-testid="open-log-folder"]').trigger('click')
    await flush()
    const toasts = useToastStore()
    expect(toasts.toasts).toHaveLength(1)
    expect(toasts.toasts[0].kind).toBe('error')
    expect(toasts.toasts[0].message).toContain('/d/logs')
  })
})

describe('background panics', () => {
  const Host = defineComponent({
    setup() {
      useBackgroundPanics()
      return () => h('div')
    },
  })

  it('shows one toast per failing job, however often it is reported', async () => {
    mount(Host, { global: { plugins: [testI18n('ja')] } })
    const emit = handlers.get(BACKGROUND_PANIC)!
    emit({ job: 'kb.index', message: 'runtime error: invalid memory address or nil pointer dereference' })
    emit({ job: 'kb.index', message: 'again' })
    emit({ job: 'reminders.fire', message: 'boom' })
    emit({ nonsense: true })
    const toasts = useToastStore()
    expect(toasts.toasts.map((x) => x.message)).toEqual([
      'バックグラウンド処理 "kb.index" が失敗しました。詳細はログにあります。',
      'バックグラウンド処理 "reminders.fire" が失敗しました。詳細はログにあります。',
    ])
    expect(toasts.toasts.every((x) => x.kind === 'error')).toBe(true)
  })

  it('reads only payloads with a job name', () => {
    expect(toBackgroundPanic({ job: 'kb.watch', message: 'x' })).toEqual({ job: 'kb.watch', message: 'x' })
    expect(toBackgroundPanic({ job: 'kb.watch' })).toEqual({ job: 'kb.watch', message: '' })
    expect(toBackgroundPanic({ job: '' })).toBeNull()
    expect(toBackgroundPanic(null)).toBeNull()
    expect(toBackgroundPanic('kb.watch')).toBeNull()
  })
})
