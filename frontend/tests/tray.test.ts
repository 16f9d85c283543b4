import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { TRAY_NEW_CHAT, TRAY_OPEN_SESSION } from '@/api/tray'
import type { DesktopStatus } from '@/api/types'
import DesktopStatusNote from '@/components/settings/DesktopStatusNote.vue'
import { useTrayEvents } from '@/composables/useTrayEvents'
import { useSessionStore } from '@/stores/sessions'
import { testI18n } from './helpers'

const handlers = new Map<string, (data?: unknown) => void>()
const offs: string[] = []
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, cb: (data?: unknown) => void) => {
    handlers.set(name, cb)
    return () => offs.push(name)
  }),
  BrowserOpenURL: vi.fn(),
}))

beforeEach(() => {
  setActivePinia(createPinia())
  handlers.clear()
  offs.length = 0
})

const status = (s: Partial<DesktopStatus>): DesktopStatus => ({
  trayAvailable: true,
  trayReason: '',
  autostartSupported: true,
  autostartError: '',
  ...s,
})

describe('DesktopStatusNote', () => {
  it('says nothing where the tray and start at login work', () => {
    const w = mount(DesktopStatusNote, { props: { status: status({}) }, global: { plugins: [testI18n('en')] } })
    expect(w.find('[data-testid="desktop-status"]').exists()).toBe(false)
  })

  it('says that closing quits when there is no tray, with the reason as a tooltip, in Japanese too', () => {
    const reason = 'no system tray on this desktop (no StatusNotifierWatcher on the D-Bus session bus)'
    const en = mount(DesktopStatusNote, {
      props: { status: status({ trayAvailable: false, trayReason: reason }) },
      global: { plugins: [testI18n('en')] },
    })
    const p = en.get('[data-testid="desktop-no-tray"]')
    expect(p.text()).toContain('closing the window quits playchat')
    expect(p.attributes('title')).toBe(reason)
    const ja = mount(DesktopStatusNote, {
      props: { status: status({ trayAvailable: false, trayReason: reason }) },
      global: { plugins: [testI18n('ja')] },
    })
    expect(ja.get('[data-testid="desktop-no-tray"]').text()).toContain('ウィンドウを閉じると playchat は終了')
  })

  it('says start at login is unsupported, or shows why changing it failed', () => {
    const un = mount(DesktopStatusNote, {
      props: { status: status({ autostartSupported: false, autostartError: 'start at login is not supported on this platform yet' }) },
      global: { plugins: [testI18n('en')] },
    })
    expect(un.get('[data-testid="desktop-autostart-unsupported"]').text()).toContain('not supported on this platform')
    expect(un.find('[data-testid="desktop-autostart-error"]').exists()).toBe(false)
    const failed = mount(DesktopStatusNote, {
      props: { status: status({ autostartError: 'autostart: write /x: permission denied' }) },
      global: { plugins: [testI18n('en')] },
    })
    expect(failed.get('[data-testid="desktop-autostart-error"]').text()).toContain('permission denied')
  })
})

describe('useTrayEvents', () => {
  const Host = defineComponent({
    props: { focus: { type: Function, required: true } },
    setup(props) {
      useTrayEvents(() => (props.focus as () => void)())
      return () => h('div')
    },
  })

  it("opens a new chat on the tray's New chat and a reminder's chat when it is known", async () => {
    const sessions = useSessionStore()
    sessions.select('s-old')
    const focus = vi.fn()
    const w = mount(Host, { props: { focus } })
    handlers.get(TRAY_NEW_CHAT)!()
    expect(sessions.currentId).toBe(null)
    expect(focus).toHaveBeenCalledTimes(1)

    sessions.$patch({ sessions: [{ id: 's1', title: 'Garbage day' }] } as never)
    handlers.get(TRAY_OPEN_SESSION)!('s1')
    expect(sessions.currentId).toBe('s1')
    handlers.get(TRAY_OPEN_SESSION)!('gone') // a deleted chat leaves the current one open
    expect(sessions.currentId).toBe('s1')
    w.unmount()
    expect(offs.sort()).toEqual([TRAY_NEW_CHAT, TRAY_OPEN_SESSION].sort())
  })
})
