// Nothing a person typed is lost on quitting: the message box's drafts and
// unsaved note edits are kept in the data dir (app.DraftService, faked here
// as one data dir's table) and come back in a new page (a restart of the
// app), only while they still differ from what is saved — and never in
// another data dir (issue 22: they lived in WebKit's storage, which every
// data dir shares). Drafts an older version left there are taken over once.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { NotePage } from '@/api/types'
import { MESSAGE_DRAFTS_KEY, useDraftStore } from '@/stores/drafts'
import { NOTE_DRAFTS_KEY, useNotesStore } from '@/stores/notes'
import { PERSIST_DELAY_MS } from '@/utils/persist'

/** The data dir's drafts table; switching data dirs swaps the table. */
let table = new Map<string, string>()
vi.mock('@/api/drafts', () => ({
  load: vi.fn(async (kind: string) => table.get(kind) ?? ''),
  save: vi.fn(async (kind: string, data: string) => {
    if (data === '') table.delete(kind)
    else table.set(kind, data)
  }),
}))
vi.mock('@/api/notes', () => ({
  list: vi.fn(),
  pins: vi.fn(async () => []),
  setPins: vi.fn(async () => {}),
}))
vi.mock('@/api/sessions', () => ({ list: vi.fn(async () => []), messages: vi.fn(async () => []) }))
const api = vi.mocked(await import('@/api/notes'))

const page = (id: number, content: string): NotePage =>
  ({ id, title: 'Page ' + id, content, section: '', position: id, version: 1 }) as NotePage

/** Lets the store's watcher schedule its write, then runs the debounce. */
async function settle() {
  await nextTick()
  vi.advanceTimersByTime(PERSIST_DELAY_MS)
  await Promise.resolve()
}

/** A new page of the app: fresh stores reading what was stored. */
function restart() {
  setActivePinia(createPinia())
}

beforeEach(() => {
  vi.useFakeTimers()
  table = new Map()
  localStorage.clear()
  restart()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('message drafts', () => {
  it('come back after a restart, per chat and for the new chat', async () => {
    const d = useDraftStore()
    await d.ready
    d.set('s1', '明日の予定を')
    d.set(null, 'まだ送っていない新しいチャット')
    await settle()
    restart()
    const again = useDraftStore()
    await again.ready
    expect(again.get('s1')).toBe('明日の予定を')
    expect(again.get(null)).toBe('まだ送っていない新しいチャット')
    expect(localStorage.length).toBe(0) // nothing in WebKit's storage
  })

  it('stay with their data dir', async () => {
    const d = useDraftStore()
    await d.ready
    d.set('s1', '秘密の下書き')
    await settle()
    table = new Map() // another data dir
    restart()
    const other = useDraftStore()
    await other.ready
    expect(other.get('s1')).toBe('')
  })

  it('a sent (cleared) draft is not brought back', async () => {
    const d = useDraftStore()
    await d.ready
    d.set('s1', 'hello')
    await settle()
    d.set('s1', '')
    await settle()
    expect(table.has('messages')).toBe(false)
    restart()
    const again = useDraftStore()
    await again.ready
    expect(again.get('s1')).toBe('')
  })

  it('what is typed before the saved drafts arrive is kept, and nothing saved is wiped meanwhile', async () => {
    table.set('messages', JSON.stringify({ s2: '保存済み' }))
    const d = useDraftStore()
    d.set('s1', 'すぐ打った')
    await settle()
    await d.ready
    expect(d.get('s1')).toBe('すぐ打った')
    expect(d.get('s2')).toBe('保存済み')
    await settle()
    expect(JSON.parse(table.get('messages')!)).toEqual({ s1: 'すぐ打った', s2: '保存済み' })
  })

  it('drafts an older version left in WebKit storage are taken over once, and a bad value is ignored', async () => {
    localStorage.setItem(MESSAGE_DRAFTS_KEY, JSON.stringify({ s1: '古い下書き' }))
    const d = useDraftStore()
    await d.ready
    expect(d.get('s1')).toBe('古い下書き')
    expect(localStorage.getItem(MESSAGE_DRAFTS_KEY)).toBeNull()
    await settle()
    expect(JSON.parse(table.get('messages')!)).toEqual({ s1: '古い下書き' })

    table.set('messages', '{"s1": 42')
    restart()
    const again = useDraftStore()
    await again.ready
    expect(again.get('s1')).toBe('')
  })
})

describe('unsaved note edits', () => {
  it('come back after a restart while the page still differs, and go when it holds the same text', async () => {
    api.list.mockResolvedValue([page(1, 'saved text'), page(2, 'other')])
    const notes = useNotesStore()
    await notes.load()
    notes.setDraft(1, 'saved text and an unsaved line')
    await settle()
    expect(JSON.parse(table.get('notes')!)[1].content).toBe('saved text and an unsaved line')

    restart()
    const again = useNotesStore()
    await again.load()
    await vi.waitFor(() => expect(again.textOf(1)).toBe('saved text and an unsaved line'))
    expect(again.isDirty(1)).toBe(true)

    // Meanwhile the page was saved with the same text: nothing is pending.
    api.list.mockResolvedValue([page(1, 'saved text and an unsaved line'), page(2, 'other')])
    restart()
    const third = useNotesStore()
    await third.load()
    await settle()
    expect(third.isDirty(1)).toBe(false)
    await settle()
    expect(table.has('notes')).toBe(false)
    expect(localStorage.getItem(NOTE_DRAFTS_KEY)).toBeNull()
  })
})
