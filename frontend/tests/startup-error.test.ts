import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import StartupErrorScreen from '@/components/shell/StartupErrorScreen.vue'
import { useFatalStore } from '@/stores/fatal'
import { useToastStore } from '@/stores/toasts'
import { flush, testI18n } from './helpers'

const runtime = vi.hoisted(() => ({ Quit: vi.fn(), BrowserOpenURL: vi.fn(), EventsOn: vi.fn() }))
vi.mock('../wailsjs/runtime/runtime', () => runtime)
const system = vi.hoisted(() => ({ OpenDataFolder: vi.fn(), Startup: vi.fn() }))
vi.mock('../wailsjs/go/app/SystemService', () => system)

const dir = '/home/u/.local/share/playchat'
const damaged = {
  code: 'store.damaged',
  params: { path: `${dir}/playchat.db`, dir, detail: 'database disk image is malformed (11)' },
  message: `the database ${dir}/playchat.db is damaged (database disk image is malformed (11)); …`,
}
const newer = {
  code: 'store.newerSchema',
  params: { path: `${dir}/playchat.db`, dir, migration: '20991231000099_from_the_future', latest: '20261202000018_streaming_replies' },
  message: 'the database … was written by a newer version of playchat …',
}

beforeEach(() => {
  setActivePinia(createPinia())
  runtime.Quit.mockReset()
  system.OpenDataFolder.mockReset().mockResolvedValue(undefined)
})

function screen(locale: 'ja' | 'en') {
  return mount(StartupErrorScreen, { global: { plugins: [testI18n(locale)] } })
}

describe('StartupErrorScreen', () => {
  it('says in Japanese that the database is damaged, names the folder and the way back', async () => {
    useFatalStore().report(damaged, { dataDir: dir, atStartup: true })
    const w = screen('ja')
    expect(w.text()).toContain('データベースが壊れています')
    expect(w.get('[data-testid="startup-error-message"]').text()).toContain(`データフォルダー ${dir} をバックアップ`)
    expect(w.text()).toContain('何も変更していません')
    expect(w.get('[data-testid="startup-error-folder"]').text()).toBe(dir)
    await w.get('[data-testid="open-data-folder"]').trigger('click')
    await flush()
    expect(system.OpenDataFolder).toHaveBeenCalledOnce()
    await w.get('[data-testid="quit"]').trigger('click')
    expect(runtime.Quit).toHaveBeenCalledOnce()
  })

  it('says in English that the data is from a newer playchat', () => {
    useFatalStore().report(newer, { dataDir: dir, atStartup: true })
    const w = screen('en')
    expect(w.text()).toContain('This data is from a newer playchat')
    const msg = w.get('[data-testid="startup-error-message"]').text()
    expect(msg).toContain('20991231000099_from_the_future')
    expect(msg).toContain(`restore the data folder ${dir}`)
    expect(w.text()).toContain('install it again to open this folder')
  })

  it('shows any other start-up failure as it is worded', () => {
    useFatalStore().report({ code: '', message: 'create data dir: permission denied' }, { dataDir: dir, atStartup: true })
    const w = screen('en')
    expect(w.text()).toContain('playchat could not start')
    expect(w.text()).toContain('create data dir: permission denied')
  })

  it('takes over when damage is found while running: an error toast of store.damaged', () => {
    const fatal = useFatalStore()
    useToastStore().error(new Error(JSON.stringify(damaged)))
    expect(fatal.error?.code).toBe('store.damaged')
    expect(fatal.dataDir).toBe(dir)
    expect(fatal.atStartup).toBe(false)
    expect(screen('en').text()).toContain('stopped writing to the database')
  })

  it('leaves other errors to the toasts', () => {
    useToastStore().error(new Error(JSON.stringify({ code: 'chat.noModel', params: {}, message: 'no model' })))
    expect(useFatalStore().error).toBeNull()
  })
})
