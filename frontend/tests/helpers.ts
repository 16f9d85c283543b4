import { createI18n } from 'vue-i18n'
import en from '@/locales/en'
import ja from '@/locales/ja'
import type { Message, Session } from '@/api/types'

/** A fresh i18n instance for mounting components (English, so assertions read plainly). */
export function testI18n(locale: 'ja' | 'en' = 'en') {
  return createI18n({ legacy: false, locale, fallbackLocale: 'en', messages: { ja, en } })
}

/** A keydown with the fields browsers set during IME input (keyCode is read-only in jsdom). */
export function keydown(init: KeyboardEventInit & { keyCode?: number }): KeyboardEvent {
  const { keyCode, ...rest } = init
  const e = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...rest })
  if (keyCode !== undefined) Object.defineProperty(e, 'keyCode', { get: () => keyCode })
  return e
}

/** Waits for pending promise callbacks (several rounds, for chained awaits). */
export async function flush(rounds = 5) {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0))
}

/** A stored chat of id as the sessions API lists it (issue tests of the chat stores). */
export const storedSession = (id: string): Session => ({
  id, title: id, model: 'openai/a', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z',
})

/** A stored message of session s1 as the sessions API gives it; extra overrides any field. */
export const storedMessage = (id: number, role: string, content: string, extra: Partial<Message> = {}): Message => ({
  id, sessionId: 's1', role, content, status: 'complete', error: '', model: 'openai/a',
  createdAt: '2025-01-01T00:00:00Z', archived: false, forgotten: false, ...extra,
})
