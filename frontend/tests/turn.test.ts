import { describe, expect, it } from 'vitest'
import type { Message } from '@/api/types'
import {
  draftMessage, failedReply, fromStored, mergeTool, replyOutcome, visibleMessages,
} from '@/utils/turn'

const stored = (id: number, role: string, content: string): Message => ({
  id, sessionId: 's', role, content, status: 'complete', error: '', model: '', createdAt: '', archived: false, forgotten: false,
})

describe('mergeTool', () => {
  it('adds a start and merges its end by id', () => {
    let list = mergeTool([], { id: '1', name: 'search', label: 'Searching', detail: 'cats', status: 'running' })
    list = mergeTool(list, { id: '2', name: 'read', status: 'running' })
    list = mergeTool(list, { id: '1', status: 'error', result: 'timeout' })
    expect(list).toEqual([
      { id: '1', name: 'search', label: 'Searching', detail: 'cats', status: 'error', result: 'timeout' },
      { id: '2', name: 'read', status: 'running' },
    ])
  })
})

describe('visibleMessages', () => {
  it('appends the live user message and the reply after the history', () => {
    const history = [fromStored(stored(1, 'user', 'a')), fromStored(stored(2, 'assistant', 'b'))]
    const user = draftMessage('u', 'user', 'next', '', 's')
    const assistant = draftMessage('r', 'assistant', 'partial', '', 's')
    expect(visibleMessages(history, [{ user, assistant }]).map((m) => m.content)).toEqual([
      'a', 'b', 'next', 'partial',
    ])
  })

  it('does not show the user message twice once the history holds it', () => {
    const history = [fromStored(stored(5, 'user', 'next'))]
    const user = { ...draftMessage('u', 'user', 'next', '', 's'), id: 5 }
    const assistant = draftMessage('r', 'assistant', '', '', 's')
    expect(visibleMessages(history, [{ user, assistant }]).map((m) => m.key)).toEqual(['m5', 'r'])
  })
})

describe('replyOutcome', () => {
  const reply = (status: string, error = '', pending = false) => ({ status, error, pending })

  it('tells a stop by the user from a reply cut by a failure', () => {
    expect(replyOutcome(reply('partial', 'stopped'))).toBe('stopped')
    expect(replyOutcome(reply('partial', 'connection reset by peer'))).toBe('interrupted')
    expect(replyOutcome(reply('partial', 'HTTP 502: bad gateway'))).toBe('interrupted')
  })

  it('treats a partial reply without an error (older history) as stopped', () => {
    expect(replyOutcome(reply('partial'))).toBe('stopped')
  })

  it('knows complete, error and streaming replies', () => {
    expect(replyOutcome(reply('complete'))).toBe('complete')
    expect(replyOutcome(reply('error', 'rate limited'))).toBe('error')
    expect(replyOutcome(reply('streaming', '', true))).toBe('streaming')
  })
})

describe('failedReply', () => {
  it('keeps text that arrived as a partial reply, like the backend stores it', () => {
    const timeout = { code: 'chat.unreachable', message: 'timeout', params: { kind: 'timeout' } }
    expect(failedReply('Half an answer', timeout)).toEqual({ status: 'partial', error: 'timeout', errorInfo: timeout })
    expect(failedReply('  \n', timeout)).toEqual({ status: 'error', error: 'timeout', errorInfo: timeout })
    const noModel = { code: '', message: 'no model' }
    expect(failedReply('', noModel)).toEqual({ status: 'error', error: 'no model', errorInfo: noModel })
  })
})

describe('replies stored while they stream (issue 21)', () => {
  const streamingRow = (id: number, parentId: number, content: string) =>
    fromStored({ ...stored(id, 'assistant', content), status: 'streaming', parentId })

  it('labels a stored reply still being written elsewhere', () => {
    expect(replyOutcome({ status: 'streaming', error: '', pending: false })).toBe('writing')
    expect(replyOutcome({ status: 'partial', error: 'playchat ended before this reply was complete', pending: false })).toBe('interrupted')
  })

  it('shows the live copy of this window’s reply, not its stored streaming row', () => {
    const q = fromStored({ ...stored(1, 'user', 'q'), parentId: 0 })
    const user = { ...draftMessage('u', 'user', 'q', '', 's'), id: 1 }
    const assistant = draftMessage('r', 'assistant', 'live text so far', '', 's')
    const shown = visibleMessages([q, streamingRow(2, 1, 'older stored text')], [{ user, assistant }])
    expect(shown.map((m) => m.content)).toEqual(['q', 'live text so far'])
  })

  it('keeps a reply another playchat is writing', () => {
    const history = [fromStored(stored(1, 'user', 'q')), streamingRow(2, 1, 'from the CLI')]
    const user = { ...draftMessage('u', 'user', 'other', '', 's'), id: 7 }
    const assistant = draftMessage('r', 'assistant', '', '', 's')
    expect(visibleMessages(history, [{ user, assistant }]).map((m) => m.content)).toEqual(['q', 'from the CLI', 'other', ''])
    expect(visibleMessages(history, [])).toBe(history)
  })
})
