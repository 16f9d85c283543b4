import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TurnEnd, TurnHandlers } from '@/api/chat'
import type { NotePage, Session, TurnStart } from '@/api/types'
import { useChatStore } from '@/stores/chat'
import { MAX_SAVE_ATTEMPTS, useNotesStore } from '@/stores/notes'
import { useSessionStore } from '@/stores/sessions'
import { flush } from './helpers'

vi.mock('@/api/notes', () => ({
  list: vi.fn(),
  create: vi.fn(),
  update: vi.fn(),
  rename: vi.fn(),
  remove: vi.fn(async () => {}),
  setSection: vi.fn(),
  renameSection: vi.fn(),
  reorder: vi.fn(),
  pins: vi.fn(async () => []),
  setPins: vi.fn(async () => {}),
}))
vi.mock('@/api/chat', () => ({ streamTurn: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  create: vi.fn(),
  rename: vi.fn(),
  setModel: vi.fn(),
  remove: vi.fn(),
  exportToFile: vi.fn(),
  importFromFile: vi.fn(),
}))

const api = vi.mocked(await import('@/api/notes'))
const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

const page = (id: number, section = '', content = 'text ' + id, title = 'Page ' + id, version = 1): NotePage => ({
  id, title, content, section, position: 0, updatedAt: '2025-01-01T00:00:00Z', version,
})
const session = (id: string): Session => ({
  id, title: id, model: '', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z',
})

/** A chat turn the test drives by hand. */
function fakeTurn() {
  let handlers: TurnHandlers = {}
  let input: { notePageIds?: number[] } = {}
  let resolveStart!: (s: TurnStart) => void
  let rejectStart!: (e: Error) => void
  let resolveDone!: (e: TurnEnd) => void
  const started = new Promise<TurnStart>((res, rej) => {
    resolveStart = res
    rejectStart = rej
  })
  started.catch(() => {})
  const done = new Promise<TurnEnd>((r) => (resolveDone = r))
  chatApi.streamTurn.mockImplementationOnce((i, h) => {
    input = i
    handlers = h ?? {}
    return { turnId: 'T1', started, done, stop: vi.fn() }
  })
  return {
    get handlers() { return handlers },
    get input() { return input },
    resolveStart, rejectStart, end: (e: TurnEnd) => resolveDone(e),
  }
}

function setup(current: string | null = 's1') {
  setActivePinia(createPinia())
  const sessions = useSessionStore()
  sessions.sessions = [session('s1'), session('s2')]
  sessions.currentId = current
  return { sessions, notes: useNotesStore(), chat: useChatStore() }
}

beforeEach(() => {
  vi.clearAllMocks()
  api.list.mockResolvedValue([page(1), page(2, 'A'), page(3, 'A'), page(4, 'B')])
  api.pins.mockResolvedValue([])
  sessionsApi.list.mockResolvedValue([session('s1'), session('s2'), session('new1')])
})

describe('notes store: loading and refresh', () => {
  it('loads the pages, opens the first and loads the open chat’s pins', async () => {
    api.pins.mockResolvedValue([3])
    const { notes } = setup()
    await notes.load()
    expect(notes.pages.map((p) => p.id)).toEqual([1, 2, 3, 4])
    expect(notes.currentId).toBe(1)
    expect(api.pins).toHaveBeenCalledWith('s1')
    expect(notes.pinnedIds).toEqual([3])
    expect(notes.groups.map((g) => g.section)).toEqual(['', 'A', 'B'])
  })

  it('refreshes the pages when a turn reports notes_updated', async () => {
    const { notes, chat } = setup()
    await notes.load()
    const turn = fakeTurn()
    chat.send('write a note')
    api.list.mockResolvedValue([page(1), page(2, 'A'), page(3, 'A'), page(4, 'B'), page(5, '', 'by the AI')])
    turn.handlers.onNotesUpdated!()
    await flush()
    expect(api.list).toHaveBeenCalledTimes(2)
    expect(notes.pages.map((p) => p.id)).toEqual([1, 2, 3, 4, 5])
    expect(chat.notesVersion).toBe(1)
  })

  it('does not fetch on notes_updated before the panel ever loaded', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.handlers.onNotesUpdated!()
    await flush()
    expect(api.list).not.toHaveBeenCalled()
  })

  it('loads the pins of another chat when it is opened', async () => {
    const { notes, sessions } = setup()
    await notes.load()
    api.pins.mockResolvedValue([2, 4])
    sessions.select('s2')
    await flush()
    expect(api.pins).toHaveBeenLastCalledWith('s2')
    expect(notes.pinnedIds).toEqual([2, 4])
  })
})

describe('notes store: pins', () => {
  it('sends the pins of a new chat with its first message, then clears them', async () => {
    const { notes, chat, sessions } = setup(null)
    await notes.load()
    await notes.togglePin(3)
    await notes.togglePin(1)
    expect(notes.pendingPins).toEqual([3, 1])
    expect(api.setPins).not.toHaveBeenCalled()

    const turn = fakeTurn()
    chat.send('first message')
    expect(turn.input.notePageIds).toEqual([3, 1])
    turn.handlers.onSessionId!('new1')
    await flush()
    expect(sessions.currentId).toBe('new1')
    expect(notes.pendingPins).toEqual([])
    expect(notes.pinnedIds).toEqual([3, 1])
    expect(api.setPins).not.toHaveBeenCalled() // the backend pinned them with Send

    // The next message of that chat carries no ids: the session has them.
    turn.end({ ok: true })
    await flush()
    const next = fakeTurn()
    chat.send('second message')
    expect(next.input.notePageIds).toEqual([])
  })

  it('keeps the pending pins when the first message could not be sent', async () => {
    const { notes, chat } = setup(null)
    await notes.load()
    await notes.togglePin(2)
    const turn = fakeTurn()
    chat.send('first')
    turn.rejectStart(new Error('no model'))
    turn.end({ ok: false, error: { code: '', message: 'no model' }, started: false })
    await flush()
    expect(notes.pendingPins).toEqual([2])
    expect(notes.pinnedIds).toEqual([2])
  })

  it('calls SetPins with the whole list for an existing chat', async () => {
    const { notes } = setup()
    await notes.load()
    await notes.togglePin(2)
    expect(api.setPins).toHaveBeenLastCalledWith('s1', [2])
    await notes.togglePin(4)
    expect(api.setPins).toHaveBeenLastCalledWith('s1', [2, 4])
    await notes.togglePin(2)
    expect(api.setPins).toHaveBeenLastCalledWith('s1', [4])
    expect(notes.isPinned(4)).toBe(true)
    expect(notes.pendingPins).toEqual([])
  })

  it('puts the pins back when SetPins fails', async () => {
    const { notes } = setup()
    await notes.load()
    api.setPins.mockRejectedValueOnce(new Error('no such page'))
    await expect(notes.togglePin(2)).rejects.toThrow('no such page')
    expect(notes.pinnedIds).toEqual([])
  })
})

describe('notes store: editing', () => {
  it('keeps drafts across tab switches and saves with Update', async () => {
    const { notes } = setup()
    await notes.load()
    notes.setDraft(1, 'my edit')
    expect(notes.isDirty(1)).toBe(true)
    notes.select(2)
    notes.select(1)
    expect(notes.textOf(1)).toBe('my edit')
    expect(notes.dirtyIds).toEqual([1])
    api.update.mockResolvedValue({ saved: true, page: page(1, '', 'my edit', 'Page 1', 2) })
    expect(await notes.save(1)).toBe('saved')
    expect(api.update).toHaveBeenCalledWith(1, 'Page 1', 'my edit', 1)
    expect(notes.currentPage?.version).toBe(2)
    expect(notes.isDirty(1)).toBe(false)
    expect(notes.drafts).toEqual({})
  })

  it('typing the saved text back leaves no draft', async () => {
    const { notes } = setup()
    await notes.load()
    notes.setDraft(1, 'x')
    notes.setDraft(1, 'text 1')
    expect(notes.drafts).toEqual({})
  })

  it('flags a draft whose page the AI changed meanwhile', async () => {
    const { notes } = setup()
    await notes.load()
    notes.setDraft(1, 'mine')
    api.list.mockResolvedValue([page(1, '', 'theirs'), page(2, 'A'), page(3, 'A'), page(4, 'B')])
    await notes.onNotesUpdated()
    expect(notes.textOf(1)).toBe('mine')
    expect(notes.hasConflict(1)).toBe(true)
  })

  it('renames the title only, keeping the draft a draft', async () => {
    const { notes } = setup()
    await notes.load()
    notes.setDraft(2, 'unsaved')
    api.rename.mockResolvedValue(page(2, 'A', 'text 2', 'Renamed'))
    await notes.rename(2, '  Renamed ')
    expect(api.rename).toHaveBeenCalledWith(2, 'Renamed')
    expect(api.update).not.toHaveBeenCalled()
    expect(notes.textOf(2)).toBe('unsaved')
  })

  it('deleting a page drops its draft and its pin and opens another page', async () => {
    const { notes } = setup()
    await notes.load()
    await notes.togglePin(1)
    notes.setDraft(1, 'gone soon')
    api.list.mockResolvedValue([page(2, 'A'), page(3, 'A'), page(4, 'B')])
    await notes.remove(1)
    expect(api.remove).toHaveBeenCalledWith(1)
    expect(notes.drafts).toEqual({})
    expect(notes.pinnedIds).toEqual([])
    expect(notes.currentId).toBe(2)
  })

  it('creates a page in a section and opens it', async () => {
    const { notes } = setup()
    await notes.load()
    api.create.mockResolvedValue(page(9, 'A'))
    api.list.mockResolvedValue([page(1), page(2, 'A'), page(3, 'A'), page(9, 'A'), page(4, 'B')])
    await notes.create(' New ', ' A ')
    expect(api.create).toHaveBeenCalledWith('New', '', 'A')
    expect(notes.currentId).toBe(9)
  })
})

describe('notes store: drag and drop', () => {
  it('sends the complete new order in one Reorder call', async () => {
    const { notes } = setup()
    await notes.load()
    api.reorder.mockResolvedValue([page(1), page(2, 'A'), page(4, 'A'), page(3, 'A')])
    expect(await notes.drop(4, { kind: 'after', pageId: 2 })).toBe(true)
    expect(api.reorder).toHaveBeenCalledTimes(1)
    expect(api.reorder).toHaveBeenCalledWith(4, 'A', [1, 2, 4, 3])
    expect(notes.pages.map((p) => [p.id, p.section])).toEqual([[1, ''], [2, 'A'], [4, 'A'], [3, 'A']])
  })

  it('sends nothing for a drop that changes nothing', async () => {
    const { notes } = setup()
    await notes.load()
    expect(await notes.drop(2, { kind: 'before', pageId: 2 })).toBe(false)
    expect(api.reorder).not.toHaveBeenCalled()
  })

  it('moves the tabs back when the backend refuses the order', async () => {
    const { notes } = setup()
    await notes.load()
    api.reorder.mockRejectedValueOnce(new Error('the order must list each of the 4 pages exactly once'))
    await expect(notes.drop(1, { kind: 'end' })).rejects.toThrow('exactly once')
    expect(notes.pages.map((p) => p.id)).toEqual([1, 2, 3, 4])
  })
})

describe('notes store: saving over a page that changed meanwhile', () => {
  const saved = '# 予定\n- 月曜: 会議\n- 火曜: 休み'
  const others = [page(2, 'A'), page(3, 'A'), page(4, 'B')]
  const at = (content: string, version: number) => page(1, '', content, 'Page 1', version)

  async function editing(draft: string) {
    api.update.mockReset()
    api.list.mockResolvedValue([at(saved, 1), ...others])
    const { notes } = setup()
    await notes.load()
    notes.setDraft(1, draft)
    return notes
  }

  it('merges the draft with an append the server reports and saves the merge against the new version', async () => {
    const notes = await editing(saved.replace('会議', '会議 10時'))
    const appended = saved + '\n- AI: 水曜は歯医者'
    api.update
      .mockResolvedValueOnce({ saved: false, page: at(appended, 2) })
      .mockImplementationOnce(async (_id, _t, content) => ({ saved: true, page: at(content, 3) }))
    expect(await notes.save(1)).toBe('merged')
    const merged = '# 予定\n- 月曜: 会議 10時\n- 火曜: 休み\n- AI: 水曜は歯医者'
    expect(api.update).toHaveBeenNthCalledWith(1, 1, 'Page 1', saved.replace('会議', '会議 10時'), 1)
    expect(api.update).toHaveBeenNthCalledWith(2, 1, 'Page 1', merged, 2)
    expect(notes.currentPage).toMatchObject({ content: merged, version: 3 })
    expect(notes.drafts).toEqual({})
  })

  it('merges before saving when it already knows the AI appended (no blind overwrite)', async () => {
    const notes = await editing(saved.replace('休み', '休み（有給）'))
    api.list.mockResolvedValue([at(saved + '\n- AI: 追記', 2), ...others])
    await notes.onNotesUpdated()
    expect(notes.hasConflict(1)).toBe(true)
    api.update.mockImplementationOnce(async (_id, _t, content) => ({ saved: true, page: at(content, 3) }))
    expect(await notes.save(1)).toBe('merged')
    expect(api.update).toHaveBeenCalledTimes(1)
    expect(api.update).toHaveBeenCalledWith(1, 'Page 1', '# 予定\n- 月曜: 会議\n- 火曜: 休み（有給）\n- AI: 追記', 2)
  })

  it('stops at a true conflict without saving, keeping both the draft and the other change', async () => {
    const mine = saved.replace('会議', '出張')
    const notes = await editing(mine)
    const theirs = saved.replace('会議', '会議は中止')
    api.update.mockResolvedValueOnce({ saved: false, page: at(theirs, 2) })
    expect(await notes.save(1)).toBe('conflict')
    expect(api.update).toHaveBeenCalledTimes(1) // only the refused save: nothing overwrote theirs
    expect(notes.textOf(1)).toBe(mine)
    expect(notes.currentPage).toMatchObject({ content: theirs, version: 2 })
    const c = notes.conflictOf(1)!
    expect(c.theirs.version).toBe(2)
    expect(c.chunks).toContainEqual({ kind: 'conflict', mine: ['- 月曜: 出張'], base: ['- 月曜: 会議'], theirs: ['- 月曜: 会議は中止'] })
    // Saving again (Ctrl+S) does not write over it either.
    expect(await notes.save(1)).toBe('conflict')
    expect(api.update).toHaveBeenCalledTimes(1)
  })

  it('merges the usual case cleanly: unsaved lines at the end and the AI’s append', async () => {
    const notes = await editing(saved + '\n- 水曜: 私の予定')
    api.update
      .mockResolvedValueOnce({ saved: false, page: at(saved + '\n- AI: 木曜は雨', 2) })
      .mockImplementationOnce(async (_id, _t, content) => ({ saved: true, page: at(content, 3) }))
    expect(await notes.save(1)).toBe('merged')
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', saved + '\n- 水曜: 私の予定\n- AI: 木曜は雨', 2)
  })

  it('gives up with an error, saving nothing and keeping the draft, when the page keeps changing', async () => {
    const mine = saved.replace('会議', '会議 10時')
    const notes = await editing(mine)
    let v = 1
    api.update.mockImplementation(async () => {
      v++
      return { saved: false, page: at(saved + '\n- AI: ' + v, v) }
    })
    await expect(notes.save(1)).rejects.toThrow('kept changing')
    expect(api.update).toHaveBeenCalledTimes(MAX_SAVE_ATTEMPTS)
    expect(notes.textOf(1)).toBe(mine)
    expect(notes.isSaving(1)).toBe(false)
  })

  it('keeps what was typed during a merged save as a draft that the next save merges again', async () => {
    const notes = await editing(saved.replace('会議', '会議 10時'))
    const appended = saved + '\n- AI: 追記'
    let release!: () => void
    api.update.mockResolvedValueOnce({ saved: false, page: at(appended, 2) }).mockImplementationOnce(
      (_id, _t, content) =>
        new Promise((r) => {
          release = () => r({ saved: true, page: at(content, 3) })
        }),
    )
    const saving = notes.save(1)
    await flush()
    expect(await notes.save(1)).toBe('busy')
    notes.setDraft(1, saved.replace('会議', '会議 10時') + '\n- 私: 後から')
    release()
    expect(await saving).toBe('merged')
    const mergedText = '# 予定\n- 月曜: 会議 10時\n- 火曜: 休み\n- AI: 追記'
    expect(notes.currentPage).toMatchObject({ content: mergedText, version: 3 })
    expect(notes.drafts[1]).toMatchObject({ content: saved.replace('会議', '会議 10時') + '\n- 私: 後から', baseVersion: 2 })
    // The next save brings the AI's line into the later typing instead of
    // dropping it (lines added at the same place: mine first, the AI's last).
    api.update.mockImplementationOnce(async (_id, _t, content) => ({ saved: true, page: at(content, 4) }))
    expect(await notes.save(1)).toBe('merged')
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', saved.replace('会議', '会議 10時') + '\n- 私: 後から\n- AI: 追記', 3)
  })

  it('saves the chosen side against the other change’s version once the user chooses', async () => {
    const notes = await editing(saved.replace('休み', '出社'))
    const theirs = saved.replace('休み', '在宅').replace('# 予定', '# 予定\n（AI が整理）')
    api.update.mockResolvedValueOnce({ saved: false, page: at(theirs, 2) })
    expect(await notes.save(1)).toBe('conflict')
    api.update.mockImplementationOnce(async (_id, _t, content) => ({ saved: true, page: at(content, 3) }))
    expect(await notes.resolveConflict(1, 'mine')).toBe('saved')
    // My line where they conflict; the AI's other line, which did not conflict, is kept.
    expect(api.update).toHaveBeenLastCalledWith(1, 'Page 1', '# 予定\n（AI が整理）\n- 月曜: 会議\n- 火曜: 出社', 2)
    expect(notes.conflictOf(1)).toBeNull()
    expect(notes.drafts).toEqual({})
  })

  it('keeping theirs drops the draft and writes nothing; editing by hand puts both sides in the draft', async () => {
    const notes = await editing(saved.replace('休み', '出社'))
    api.update.mockResolvedValueOnce({ saved: false, page: at(saved.replace('休み', '在宅'), 2) })
    await notes.save(1)
    expect(await notes.resolveConflict(1, 'theirs')).toBe('none')
    expect(api.update).toHaveBeenCalledTimes(1)
    expect(notes.drafts).toEqual({})
    expect(notes.textOf(1)).toBe(saved.replace('休み', '在宅'))

    notes.setDraft(1, saved.replace('休み', '出張'))
    api.update.mockResolvedValueOnce({ saved: false, page: at(saved.replace('休み', '旅行'), 3) })
    expect(await notes.save(1)).toBe('conflict')
    expect(await notes.resolveConflict(1, 'edit', { mine: 'mine', theirs: 'AI' })).toBe('none')
    expect(notes.textOf(1)).toBe('# 予定\n- 月曜: 会議\n<<<<<<< mine\n- 火曜: 出張\n=======\n- 火曜: 旅行\n>>>>>>> AI')
    expect(notes.drafts[1]).toMatchObject({ base: saved.replace('休み', '旅行'), baseVersion: 3 })
    expect(api.update).toHaveBeenCalledTimes(2)
  })
})
