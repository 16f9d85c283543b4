import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import SessionItem from '@/components/sessions/SessionItem.vue'
import { printChat } from '@/api/backup'
import BackupSection from '@/components/settings/BackupSection.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/BackupService', () => ({
  Status: vi.fn(), Create: vi.fn(), CreateNow: vi.fn(), ChooseArchive: vi.fn(), Stage: vi.fn(),
  CancelRestore: vi.fn(), TestWebDAV: vi.fn(), ExportChat: vi.fn(), ChatHTML: vi.fn(),
}))
vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}), Quit: vi.fn(), BrowserOpenURL: vi.fn(), LogError: vi.fn() }))
const bound = vi.mocked(await import('../wailsjs/go/app/BackupService'))

const status = (over: Record<string, unknown> = {}) => ({
  lastBackup: null, lastSuccess: null, lastRestore: null, pending: null,
  dir: '/home/me/Sync/playchat', auto: true, keep: 7, webdav: '', running: false, ...over,
})

async function mountSection() {
  const w = mount(
    { components: { BackupSection, ConfirmDialog }, template: '<div><BackupSection /><ConfirmDialog /></div>' },
    { global: { plugins: [testI18n('en')] }, attachTo: document.body },
  )
  await flushPromises()
  return w
}

// Settings → Backups (issue 27).
describe('BackupSection', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
    document.body.innerHTML = ''
    bound.Status.mockResolvedValue(status() as never)
  })

  it('shows the schedule and that no backup exists yet, then backs up now', async () => {
    const w = await mountSection()
    expect(w.get('[data-testid="backup-last"]').text()).toBe('No backup has been made yet')
    expect(w.get('[data-testid="backup-auto"]').text()).toContain('Every day to /home/me/Sync/playchat, keeping the last 7')
    bound.CreateNow.mockResolvedValue({ at: '2026-12-02T09:00:00Z', ok: true, error: '', path: '/home/me/Sync/playchat/b.tar.gz', size: 2048, auto: false } as never)
    bound.Status.mockResolvedValue(status({ lastBackup: { at: '2026-12-02T09:00:00Z', ok: true, error: '', path: '/home/me/Sync/playchat/b.tar.gz', size: 2048, auto: false } }) as never)
    await w.get('[data-testid="backup-now"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="backup-notice"]').text()).toContain('/home/me/Sync/playchat/b.tar.gz')
    expect(w.get('[data-testid="backup-last"]').text()).toContain('Done: /home/me/Sync/playchat/b.tar.gz (2.0 KiB)')
  })

  it('shows a failed backup in red with why', async () => {
    bound.Status.mockResolvedValue(status({
      lastBackup: { at: '2026-12-02T09:00:00Z', ok: false, error: 'WebDAV PUT answered 507 Insufficient Storage', path: '', size: 0, auto: true },
      lastSuccess: { at: '2026-12-01T09:00:00Z', ok: true, error: '', path: 'x', size: 1, auto: true },
    }) as never)
    const w = await mountSection()
    const last = w.get('[data-testid="backup-last"]')
    expect(last.classes()).toContain('error')
    expect(last.text()).toContain('Failed: WebDAV PUT answered 507')
    expect(w.text()).toContain('Last successful backup')
  })

  it('asks for a passphrase of 8 characters before saving a backup with API keys', async () => {
    const w = await mountSection()
    await w.get('[data-testid="backup-keys"]').setValue(true)
    expect(w.get('[data-testid="backup-save"]').attributes('disabled')).toBeDefined()
    await w.get('[data-testid="backup-passphrase"]').setValue('correct horse')
    expect(w.get('[data-testid="backup-save"]').attributes('disabled')).toBeUndefined()
    bound.Create.mockResolvedValue({ at: 'x', ok: true, error: '', path: '/tmp/b.tar.gz.age', size: 1, auto: false } as never)
    await w.get('[data-testid="backup-save"]').trigger('click')
    await flushPromises()
    expect(bound.Create).toHaveBeenCalledWith(true, 'correct horse')
  })

  it('restores only after the confirmation, then offers to quit', async () => {
    const w = await mountSection()
    bound.ChooseArchive.mockResolvedValue({ path: '/tmp/b.tar.gz', encrypted: false } as never)
    bound.Stage.mockResolvedValue({ createdAt: '2026-12-01T09:00:00Z', appVersion: 'dev', secrets: false, sessions: 3, messages: 40, notes: 1, kbFiles: 5, path: '/tmp/b.tar.gz' } as never)
    await w.get('[data-testid="backup-restore"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('Replace all chats')
    expect(bound.Stage).not.toHaveBeenCalled()
    const ok = [...document.body.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Restore')!
    bound.Status.mockResolvedValue(status({ pending: { createdAt: '2026-12-01T09:00:00Z', appVersion: 'dev', secrets: false, sessions: 3, messages: 40, notes: 1, kbFiles: 5, path: '' } }) as never)
    ok.click()
    await flushPromises()
    expect(bound.Stage).toHaveBeenCalledWith('/tmp/b.tar.gz', '')
    expect(w.get('[data-testid="backup-pending"]').text()).toContain('3 chats, 40 messages, 5 knowledge base files')
    expect(w.find('[data-testid="backup-quit"]').exists()).toBe(true)
  })

  it('words a damaged archive with its code', async () => {
    const w = await mountSection()
    bound.ChooseArchive.mockResolvedValue({ path: '/tmp/bad.tar.gz', encrypted: true } as never)
    await w.get('[data-testid="backup-restore"]').trigger('click')
    await flushPromises()
    await w.get('[data-testid="backup-restore-pass"] input').setValue('whatever1')
    bound.Stage.mockRejectedValue(JSON.stringify({ code: 'backup.wrongPassphrase', params: { path: '/tmp/bad.tar.gz' }, message: 'x' }) as never)
    await w.get('[data-testid="backup-restore-pass"] button').trigger('click')
    await flushPromises()
    ;[...document.body.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Restore')!.click()
    await flushPromises()
    expect(w.get('[data-testid="backup-error"]').text()).toContain('The passphrase does not open the encrypted backup /tmp/bad.tar.gz')
  })
})

describe('the export menu of a chat', () => {
  it('offers Markdown, HTML and JSON and emits the one picked', async () => {
    const w = mount(SessionItem, {
      props: { session: { id: 's1', title: 'Chat a', model: 'm', createdAt: '2026-12-01T00:00:00Z', updatedAt: '2026-12-01T00:00:00Z' } as never, active: false, streaming: false },
      global: { plugins: [testI18n('en')] },
    })
    await w.get('[data-testid="export-session"]').trigger('click')
    expect(w.get('[role="menu"]').text()).toContain('Markdown (.md)')
    await w.get('[data-testid="export-html"]').trigger('click')
    expect(w.emitted('export')).toEqual([['html']])
    expect(w.find('[role="menu"]').exists()).toBe(false)
  })
})

describe('Print / PDF of a chat', () => {
  it('is in the export menu, after the files', async () => {
    const w = mount(SessionItem, {
      props: { session: { id: 's1', title: 'Chat a', model: 'm', createdAt: '2026-12-01T00:00:00Z', updatedAt: '2026-12-01T00:00:00Z' } as never, active: false, streaming: false },
      global: { plugins: [testI18n('ja')] },
    })
    await w.get('[data-testid="export-session"]').trigger('click')
    const items = w.findAll('[role="menuitem"]').map((b) => b.attributes('data-testid'))
    expect(items).toEqual(['export-md', 'export-html', 'export-json', 'export-print'])
    expect(w.get('[data-testid="export-print"]').text()).toBe('印刷 / PDF…')
    await w.get('[data-testid="export-print"]').trigger('click')
    expect(w.emitted('export')).toEqual([['print']])
  })

  it("prints the chat's HTML export in a hidden frame that runs no script", async () => {
    bound.ChatHTML.mockResolvedValue('<!doctype html><title>猫</title><p>吾輩は猫である</p>' as never)
    const print = vi.fn()
    const win = vi.spyOn(HTMLIFrameElement.prototype, 'contentWindow', 'get').mockReturnValue({ focus: vi.fn(), print } as never)
    const done = printChat('s1')
    await flushPromises()
    expect(bound.ChatHTML).toHaveBeenCalledWith('s1')
    const frame = document.querySelector<HTMLIFrameElement>('iframe[data-print-frame]')!
    expect(frame.getAttribute('srcdoc')).toContain('吾輩は猫である')
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin allow-modals')
    frame.dispatchEvent(new Event('load')) // (if jsdom has not loaded it yet)
    await done
    expect(print).toHaveBeenCalledOnce()
    win.mockRestore()
    frame.remove()
  })
})
