import { beforeEach, describe, expect, it, vi } from 'vitest'
import { streamTurn, turnEventName } from '@/api/chat'
import { call, toError } from '@/api/errors'

// The generated bindings, replaced by fakes that record the order of calls.
const order: string[] = []
const listeners = new Map<string, (ev: unknown) => void>()
const unsubscribe = vi.fn()

vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, cb: (ev: unknown) => void) => {
    order.push('on:' + name)
    listeners.set(name, cb)
    return () => {
      unsubscribe(name)
      listeners.delete(name)
    }
  }),
  BrowserOpenURL: vi.fn(),
}))
vi.mock('../wailsjs/go/app/ChatService', () => ({ Send: vi.fn(), Stop: vi.fn() }))
const ChatService = vi.mocked(await import('../wailsjs/go/app/ChatService'))

const emit = (turnId: string, ev: unknown) => listeners.get(turnEventName(turnId))?.(ev)

beforeEach(() => {
  order.length = 0
  listeners.clear()
  vi.clearAllMocks()
  ChatService.Send.mockImplementation(async (req) => {
    order.push('send')
    return {
      turnId: req.turnId, sessionId: 's1', model: 'm',
      userMessage: { id: 7 } as never,
    } as never
  })
  ChatService.Stop.mockResolvedValue(undefined as never)
})

describe('streamTurn', () => {
  it('subscribes before Send and dispatches events to the handlers', async () => {
    const chunks: string[] = []
    const onSessionId = vi.fn()
    const onTool = vi.fn()
    const h = streamTurn({ sessionId: '', text: 'hi', model: '' }, {
      onChunk: (d) => chunks.push(d), onSessionId, onTool,
    })
    expect(order).toEqual(['on:chat:turn:' + h.turnId, 'send'])
    expect(ChatService.Send).toHaveBeenCalledWith({ turnId: h.turnId, sessionId: '', text: 'hi', model: '', notePageIds: [], assistantId: 0, attachmentIds: [], fitAttachments: false })
    emit(h.turnId, { type: 'session_id', value: 's1' })
    emit(h.turnId, { type: 'chunk', value: 'a' })
    emit(h.turnId, { type: 'tool', value: { id: 'x', status: 'running' } })
    emit(h.turnId, JSON.stringify({ type: 'chunk', value: 'b' }))
    emit(h.turnId, { type: 'done' })
    await expect(h.done).resolves.toEqual({ ok: true })
    expect(onSessionId).toHaveBeenCalledWith('s1')
    expect(onTool).toHaveBeenCalledWith({ id: 'x', status: 'running' })
    expect(chunks).toEqual(['a', 'b'])
    expect(unsubscribe).toHaveBeenCalledTimes(1)
    // Late events after the end are ignored.
    emit(h.turnId, { type: 'chunk', value: 'late' })
    expect(chunks).toEqual(['a', 'b'])
  })

  it('ends with the error event and unsubscribes', async () => {
    const h = streamTurn({ sessionId: 's1', text: 'hi', model: '' })
    await h.started
    emit(h.turnId, { type: 'error', value: 'upstream 500' })
    await expect(h.done).resolves.toEqual({ ok: false, error: { code: '', message: 'upstream 500' }, started: true })
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })

  it('turns a rejected Send (a plain string) into an Error and ends the turn', async () => {
    ChatService.Send.mockRejectedValueOnce('DEFAULT_MODEL is not set')
    const h = streamTurn({ sessionId: '', text: 'hi', model: '' })
    await expect(h.started).rejects.toBeInstanceOf(Error)
    await expect(h.done).resolves.toEqual({ ok: false, error: { code: '', message: 'DEFAULT_MODEL is not set' }, started: false })
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })

  it('sends fitAttachments when asked, and a refused Send ends with its code and params', async () => {
    const info = { code: 'chat.attachmentTooLong', message: 'too long', params: { name: 'r.pdf', pages: 40, fitPages: 12 } }
    ChatService.Send.mockRejectedValueOnce(info)
    const h = streamTurn({ sessionId: 's1', text: 'hi', model: '', attachmentIds: ['a1'], fitAttachments: true })
    expect(ChatService.Send).toHaveBeenCalledWith(expect.objectContaining({ attachmentIds: ['a1'], fitAttachments: true }))
    await expect(h.done).resolves.toMatchObject({ ok: false, started: false, error: { code: 'chat.attachmentTooLong', params: info.params } })
  })

  it('stop waits for Send, then calls Stop with the turn id', async () => {
    const h = streamTurn({ sessionId: 's1', text: 'hi', model: '' })
    await h.stop()
    expect(ChatService.Stop).toHaveBeenCalledWith(h.turnId)
  })

  it('uses a different turn id for every turn', () => {
    const a = streamTurn({ sessionId: 's1', text: '1', model: '' })
    const b = streamTurn({ sessionId: 's1', text: '2', model: '' })
    expect(a.turnId).not.toBe(b.turnId)
  })
})

describe('errors', () => {
  it('wraps string rejections in Error', async () => {
    await expect(call(() => Promise.reject('boom'))).rejects.toThrow('boom')
    expect(toError({ message: 'obj' }).message).toBe('obj')
    const e = new Error('same')
    expect(toError(e)).toBe(e)
  })
})
