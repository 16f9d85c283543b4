import { describe, expect, it } from 'vitest'
import type { Message } from '@/api/types'
import { draftMessage, fromStored, mergeTool, visibleMessages } from '@/utils/turn'

const stored = (id: number, role: string, content: string): Message => ({
  id, sessionId: 's', role, content, status: 'complete', error: '', model: '', createdAt: '', archived: false,
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
