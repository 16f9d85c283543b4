// Nothing a person typed is lost on quitting: the message box's drafts and
// unsaved note edits are kept in localStorage and come back in a new page
// (a restart of the app), and only while they still differ from what is saved.
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { NotePage } from '@/api/types'
import { MESSAGE_DRAFTS_KEY, useDraftStore } from '@/stores/drafts'
import { NOTE_DRAFTS_KEY, useNotesStore } from '@/stores/notes'
import { PERSIST_DELAY_MS } from '@/utils/persist'

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
}

/** A new page of the app: fresh stores reading what was stored. */
function restart() {
  setActivePinia(createPinia())
}

beforeEach(() => {
  vi.useFakeTimers()
  restart()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('message drafts', () => {
  it('come back after a restart, per chat and for the new chat', async () => {
    const d = useDraftStore()
    d.set('s1', '明日の予定を')
    d.set(null, 'まだ送っていない新しいチャット')
    await settle()
    restart()
    const again = useDraftStore()
    expect(again.get('s1')).toBe('明日の予定を')
    expect(again.get(null)).toBe('まだ送っていない新しいチャット')
  })

  it('a sent (cleared) draft is not brought back', async () => {
    const d = useDraftStore()
    d.set('s1', 'hello')
    await settle()
    d.set('s1', '')
    await settle()
    expect(localStorage.getItem(MESSAGE_DRAFTS_KEY)).toBeNull()
    restart()
    expect(useDraftStore().get('s1')).toBe('')
  })

  it('a value that is not drafts is ignored', () => {
    localStorage.setItem(MESSAGE_DRAFTS_KEY, '{"s1": 42')
    restart()
    expect(useDraftStore().get('s1')).toBe('')
  })
})

describe('unsaved note edits', () => {
  it('come back after a restart while the page still differs, and go when it holds the same text', async () => {
    api.list.mockResolvedValue([page(1, 'saved text'), page(2, 'other')])
    const notes = useNotesStore()
    await notes.load()
    notes.setDraft(1, 'saved text and an unsaved line')
    await settle()
    expect(JSON.parse(localStorage.getItem(NOTE_DRAFTS_KEY)!)[1].content).toBe('saved text and an unsaved line')

    restart()
    const again = useNotesStore()
    await again.load()
    expect(again.textOf(1)).toBe('saved text and an unsaved line')
    expect(again.isDirty(1)).toBe(true)

    // Meanwhile the page was saved with the same text: nothing is pending.
    api.list.mockResolvedValue([page(1, 'saved text and an unsaved line'), page(2, 'other')])
    restart()
    const third = useNotesStore()
    await third.load()
    expect(third.isDirty(1)).toBe(false)
    await settle()
    expect(localStorage.getItem(NOTE_DRAFTS_KEY)).toBeNull()
  })
})
