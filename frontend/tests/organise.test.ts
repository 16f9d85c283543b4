// Pins, folders, drag into a folder and multi-select in the chat list (issue 27).
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Session } from '@/api/types'
import SessionList from '@/components/sessions/SessionList.vue'
import { answerConfirm, confirmState } from '@/composables/useConfirm'
import { useSessionStore } from '@/stores/sessions'
import { firstToOpen, groupSessions, recency } from '@/utils/sessionGroups'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []), messages: vi.fn(async () => []), create: vi.fn(), rename: vi.fn(), setModel: vi.fn(),
  remove: vi.fn(async () => {}), exportToFile: vi.fn(), importFromFile: vi.fn(),
}))
vi.mock('../wailsjs/go/app/OrganiseService', () => ({
  Overview: vi.fn(), CreateFolder: vi.fn(), RenameFolder: vi.fn(), DeleteFolder: vi.fn(), Pin: vi.fn(), Archive: vi.fn(),
  Move: vi.fn(), DeleteMany: vi.fn(),
}))
const bound = vi.mocked(await import('../wailsjs/go/app/OrganiseService'))
vi.mock('../wailsjs/go/app/BackupService', () => ({ ExportChat: vi.fn(), ExportChats: vi.fn(), ExportFolder: vi.fn() }))
const backupBound = vi.mocked(await import('../wailsjs/go/app/BackupService'))

const now = new Date('2026-12-10T12:00:00')
const iso = (d: string) => new Date(d).toISOString()
const session = (id: string, updatedAt: string): Session => ({ id, title: 'Chat ' + id, model: '', createdAt: updatedAt, updatedAt })
const none = { pinnedAt: '', folderId: 0, archivedAt: '' }

describe('groupSessions', () => {
  const ss = [
    session('a', iso('2026-12-10T09:00:00')), session('b', iso('2026-12-09T20:00:00')), session('c', iso('2026-12-06T10:00:00')),
    session('d', iso('2026-11-01T10:00:00')), session('e', iso('2026-12-10T08:00:00')), session('f', iso('2026-12-10T07:00:00')),
  ]
  it('puts pins first, then folders (even empty), then today, yesterday, the last 7 days and older; archived only in its view', () => {
    const places = {
      d: { ...none, pinnedAt: iso('2026-12-01T00:00:00') },
      e: { ...none, folderId: 1 },
      f: { ...none, archivedAt: iso('2026-12-10T09:00:00') },
    }
    const folders = [{ id: 2, name: 'Empty', position: 2 }, { id: 1, name: 'Work', position: 1 }]
    const secs = groupSessions(ss, places, folders, now)
    expect(secs.map((s) => [s.key, s.sessions.map((x) => x.id)])).toEqual([
      ['pinned', ['d']], ['folder-1', ['e']], ['folder-2', []], ['today', ['a']], ['yesterday', ['b']], ['week', ['c']],
    ])
    expect(groupSessions(ss, places, folders, now, true)).toEqual([{ key: 'archived', kind: 'archived', sessions: [ss[5]] }])
    expect(recency(iso('2026-12-03T23:00:00'), now)).toBe('older')
  })
})

describe('firstToOpen', () => {
  it('opens the newest chat that is not archived at start, or none', () => {
    const ss = [session('new', iso('2026-12-10T09:00:00')), session('mid', iso('2026-12-09T09:00:00')), session('old', iso('2026-12-01T09:00:00'))]
    const archived = { ...none, archivedAt: iso('2026-12-10T10:00:00') }
    expect(firstToOpen(ss, {})?.id).toBe('new')
    expect(firstToOpen(ss, { new: archived })?.id).toBe('mid')
    expect(firstToOpen(ss, { new: archived, mid: { ...none, pinnedAt: iso('2026-12-01T00:00:00') } })?.id).toBe('mid')
    expect(firstToOpen(ss, { new: archived, mid: archived, old: archived })).toBeNull()
    expect(firstToOpen([], {})).toBeNull()
  })
})

let wrappers: VueWrapper[] = []
async function mountList(places: Record<string, typeof none> = {}, folders = [{ id: 1, name: '仕事', position: 1 }]) {
  bound.Overview.mockResolvedValue({ folders, places } as never)
  const sessions = useSessionStore()
  sessions.sessions = [session('a', iso('2026-12-10T09:00:00')), session('b', iso('2026-12-09T09:00:00')), session('c', iso('2026-12-08T09:00:00'))]
  sessions.loaded = true
  const w = mount(SessionList, { attachTo: document.body, global: { plugins: [testI18n('en')] } })
  wrappers.push(w)
  await flushPromises()
  return w
}
const row = (w: VueWrapper, id: string) => w.get(`[data-session-id="${id}"]`)

describe('the chat list', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
  })
  afterEach(() => {
    wrappers.forEach((w) => w.unmount())
    wrappers = []
    if (confirmState.open) answerConfirm(false)
  })

  it('pins a chat: it moves into the Pinned group at the top', async () => {
    const w = await mountList()
    bound.Pin.mockResolvedValue(undefined as never)
    bound.Overview.mockResolvedValue({ folders: [], places: { c: { ...none, pinnedAt: iso('2026-12-10T10:00:00') } } } as never)
    await row(w, 'c').get('[data-testid="pin-session"]').trigger('click')
    await flushPromises()
    expect(bound.Pin).toHaveBeenCalledWith(['c'], true)
    expect(w.find('[data-testid="section-pinned"]').exists()).toBe(true)
    expect(w.findAll('[data-testid="session-item"]')[0].attributes('data-session-id')).toBe('c')
  })

  it('moves a chat dragged onto a folder into it', async () => {
    const w = await mountList()
    const data = new Map<string, string>()
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? '', effectAllowed: '' }
    await row(w, 'b').trigger('dragstart', { dataTransfer })
    bound.Move.mockResolvedValue(undefined as never)
    await w.get('[data-testid="folder-header"]').trigger('drop', { dataTransfer })
    await flushPromises()
    expect(bound.Move).toHaveBeenCalledWith(['b'], 1)
  })

  it('selects several chats with Ctrl-click, drags them together, and deletes them after one question naming how many', async () => {
    const w = await mountList()
    await row(w, 'a').get('[data-testid="session-open"]').trigger('click', { ctrlKey: true })
    await row(w, 'c').get('[data-testid="select-session"]').trigger('click')
    expect(w.get('[data-testid="selection-bar"]').text()).toContain('2 selected')
    expect(useSessionStore().currentId).toBeNull() // Ctrl-click did not open the chat

    const data = new Map<string, string>()
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? '', effectAllowed: '' }
    await row(w, 'c').trigger('dragstart', { dataTransfer })
    expect(JSON.parse(data.get('application/x-playchat-sessions')!)).toEqual(['a', 'c'])

    bound.DeleteMany.mockResolvedValue(2 as never)
    await w.get('[data-testid="bulk-delete"]').trigger('click')
    expect(confirmState.message).toBe('Delete 2 chats with all their messages? This cannot be undone.')
    answerConfirm(true)
    await flushPromises()
    expect(bound.DeleteMany).toHaveBeenCalledWith(['a', 'c'])
    expect(w.find('[data-testid="selection-bar"]').exists()).toBe(false)
  })

  it('moves the selection to a folder from the bar, and archives out of the list into the Archived view', async () => {
    const w = await mountList()
    await row(w, 'a').get('[data-testid="select-session"]').trigger('click')
    bound.Move.mockResolvedValue(undefined as never)
    await w.get('[data-testid="bulk-move"]').setValue('1')
    await flushPromises()
    expect(bound.Move).toHaveBeenCalledWith(['a'], 1)

    bound.Archive.mockResolvedValue(undefined as never)
    bound.Overview.mockResolvedValue({ folders: [], places: { b: { ...none, archivedAt: iso('2026-12-10T10:00:00') } } } as never)
    await row(w, 'b').get('[data-testid="archive-session"]').trigger('click')
    await flushPromises()
    expect(bound.Archive).toHaveBeenCalledWith(['b'], true)
    expect(w.find('[data-session-id="b"]').exists()).toBe(false)
    await w.get('[data-testid="toggle-archived"]').trigger('click')
    expect(w.findAll('[data-testid="session-item"]').map((r) => r.attributes('data-session-id'))).toEqual(['b'])
  })

  it('creates a folder and deletes one after saying its chats stay', async () => {
    const w = await mountList()
    await w.get('[data-testid="new-folder"]').trigger('click')
    await flushPromises()
    // The name box takes the typing at once.
    expect(document.activeElement).toBe(w.get('[data-testid="new-folder-input"]').element)
    bound.CreateFolder.mockResolvedValue({ id: 2, name: 'Travel', position: 2 } as never)
    await w.get('[data-testid="new-folder-input"]').setValue('Travel')
    await w.get('form.new-folder').trigger('submit')
    await flushPromises()
    expect(bound.CreateFolder).toHaveBeenCalledWith('Travel')
    await w.get('[data-testid="folder-delete"]').trigger('click')
    expect(confirmState.message).toContain('Its chats move to the top of the list; none is deleted.')
    answerConfirm(true)
    await flushPromises()
    expect(bound.DeleteFolder).toHaveBeenCalledWith(1)
  })

  it('exports the ticked chats, or a folder, as one .zip', async () => {
    const w = await mountList({ b: { ...none, folderId: 1 } })
    await row(w, 'a').get('[data-testid="select-session"]').trigger('click')
    await row(w, 'c').get('[data-testid="select-session"]').trigger('click')
    backupBound.ExportChats.mockResolvedValue({ path: '/tmp/chats.zip', chats: 2 } as never)
    await w.get('[data-testid="bulk-export"]').setValue('md')
    await flushPromises()
    expect(backupBound.ExportChats).toHaveBeenCalledWith(['a', 'c'], 'md')
    backupBound.ExportFolder.mockResolvedValue({ path: '/tmp/仕事.zip', chats: 1 } as never)
    await w.get('[data-testid="folder-export"]').trigger('click')
    await w.get('[data-testid="folder-export-html"]').trigger('click')
    await flushPromises()
    expect(backupBound.ExportFolder).toHaveBeenCalledWith(1, 'html')
    expect(w.find('[data-testid="folder-export-html"]').exists()).toBe(false)
  })
})
