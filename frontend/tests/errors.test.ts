import { describe, expect, it } from 'vitest'
import { AppError, errorMessage, infoOf, localizeError, toError, type ErrorInfo, type Translate } from '@/api/errors'
import { toastText, type Toast } from '@/stores/toasts'
import { settingRejection } from '@/utils/settings'
import { testI18n } from './helpers'

const translator = (locale: 'ja' | 'en'): Translate => {
  const { t } = testI18n(locale).global
  return (key, params) => t(key, params ?? {})
}
const ja = translator('ja')
const en = translator('en')

/** An error as the backend sends it (the message does not matter for wording). */
const e = (code: string, params: Record<string, unknown> = {}, message = `English of ${code}`): ErrorInfo => ({
  code, params, message,
})
const reason = (code: string, params: Record<string, unknown> = {}) => e(`config.reason.${code}`, params)

// [backend error, Japanese, English]
const CASES: [ErrorInfo, string, string][] = [
  [
    e('llm.providerStatus', { status: 500, detail: 'fake 500 error' }),
    'モデルのサーバーがエラーを返しました（500）: fake 500 error\nプロバイダー側の障害です。時間をおいてもう一度試してください。',
    'The model server returned an error (500): fake 500 error\nThe provider is having trouble on its side: try again later.',
  ],
  [
    e('llm.providerStatus', { status: 429, detail: 'Rate limit reached' }),
    'モデルのサーバーがエラーを返しました（429）: Rate limit reached\n利用の上限（レート制限）に達しました。しばらく待ってからもう一度試してください。',
    'The model server returned an error (429): Rate limit reached\nThe rate limit was reached: wait a moment and try again.',
  ],
  [
    e('llm.providerStatus', { status: 401, detail: 'Incorrect API key provided: sk-[redacted]' }),
    'モデルのサーバーがエラーを返しました（401）: Incorrect API key provided: sk-[redacted]\nAPI キーが受け付けられませんでした。設定の API キー（とその権限）を確認してください。',
    'The model server returned an error (401): Incorrect API key provided: sk-[redacted]\nThe API key was not accepted: check the key (and what it may access) in Settings.',
  ],
  [
    e('llm.providerStatus', { status: 404, detail: 'model "llama9" not found' }),
    'モデルのサーバーがエラーを返しました（404）: model "llama9" not found',
    'The model server returned an error (404): model "llama9" not found',
  ],
  [e('llm.providerError', { detail: 'overloaded' }), 'モデルのサーバーがエラーを返しました: overloaded', 'The model server returned an error: overloaded'],
  [
    e('chat.unreachable', { host: 'http://localhost:11434', reason: 'connect: connection refused', kind: 'refused' }),
    'モデルのサーバー http://localhost:11434 に接続できません（接続を拒否されました）\nサーバーが起動しているか、設定の URL が正しいかを確認してください。',
    'Cannot reach the model server at http://localhost:11434 (connection refused)\nCheck that the server is running and that its URL in Settings is right.',
  ],
  [
    e('chat.unreachable', { host: 'https://example.test', reason: 'tls: failed to verify certificate', kind: '' }),
    'モデルのサーバー https://example.test に接続できません（tls: failed to verify certificate）\nサーバーが起動しているか、設定の URL が正しいかを確認してください。',
    'Cannot reach the model server at https://example.test (tls: failed to verify certificate)\nCheck that the server is running and that its URL in Settings is right.',
  ],
  [
    e('llm.interrupted', { detail: e('', {}, 'unexpected EOF') }),
    '返答の途中で接続が切れました（unexpected EOF）',
    'The connection dropped before the reply finished (unexpected EOF)',
  ],
  [
    e('llm.interrupted', { detail: e('llm.noFinish') }),
    '返答の途中で接続が切れました（サーバーが返答の終わりを知らせないまま通信を終えました）',
    'The connection dropped before the reply finished (the server ended the stream without saying the reply was complete)',
  ],
  [
    e('chat.toolLimit', { rounds: 3 }),
    'モデルがツール呼び出しの上限（3 回）に達し、ツールを呼び続けたまま回答しませんでした（上限は設定の TOOL_MAX_ROUNDS で変えられます）',
    'The model reached the tool-call limit (3 rounds): it kept calling tools and gave no answer (TOOL_MAX_ROUNDS in Settings sets the limit)',
  ],
  [
    e('chat.messageTooLong', { bytes: 5242881, maxMiB: 1 }),
    'メッセージが長すぎます（5242881 バイト、上限は 1 MiB）',
    'The message is too long (5242881 bytes; the limit is 1 MiB)',
  ],
  [e('session.titleLength', { max: 200 }), 'タイトルは 1〜200 文字にしてください', 'A title needs 1 to 200 characters'],
  [
    e('kb.notReady'),
    'ナレッジベースのフォルダーはまだ準備中です。少し待ってからもう一度試してください',
    'The knowledge base folder is not ready yet: wait a moment and try again',
  ],
  [
    e('llm.missingKeyFor', { key: 'ANTHROPIC_API_KEY', model: 'anthropic/claude-3-5-haiku-latest' }),
    '「anthropic/claude-3-5-haiku-latest」を使うには ANTHROPIC_API_KEY が必要ですが、設定されていません。設定で API キーを入力してください',
    '“anthropic/claude-3-5-haiku-latest” needs ANTHROPIC_API_KEY, which is not set: enter the API key in Settings',
  ],
  [
    e('notes.titleTaken', { id: 3, title: 'Plans' }),
    '「Plans」というタイトルのノートページはすでにあります（ページ 3）',
    'A note page titled “Plans” already exists (page 3)',
  ],
  [
    e('config.invalidValueFrom', { key: 'MEMORY_SUMMARIZE_THRESHOLD', value: '2', source: 'the settings', sourceId: 'gui', reason: reason('intMin', { min: '4' }) }),
    'MEMORY_SUMMARIZE_THRESHOLD の値「2」（設定元: 設定画面）は使えません: 4 以上の整数にしてください',
    'MEMORY_SUMMARIZE_THRESHOLD cannot be “2” (set in Settings): must be a whole number ≥ 4',
  ],
  [
    e('config.invalidValue', { key: 'CONTEXT_WINDOW_TOKENS', value: 'say "lots"', reason: reason('intMin', { min: '0' }) }),
    'CONTEXT_WINDOW_TOKENS の値「say "lots"」は使えません: 0 以上の整数にしてください',
    'CONTEXT_WINDOW_TOKENS cannot be “say "lots"”: must be a whole number ≥ 0',
  ],
  [
    e('config.invalidSecretFrom', { key: 'TAVILY_API_KEY', source: '.env', sourceId: 'dotenv', reason: reason('noSpaces') }),
    'TAVILY_API_KEY の値（設定元: .env）は使えません: 空白や制御文字を含めないでください',
    'The value of TAVILY_API_KEY set in .env is not valid: must not contain spaces or control characters',
  ],
  [
    e('config.invalidValue', { key: 'DEFAULT_MODEL', value: 'gpt 4', reason: reason('model', { example: 'openai/gpt-4o-mini' }) }),
    'DEFAULT_MODEL の値「gpt 4」は使えません: 「openai/gpt-4o-mini」のような provider/model 形式のモデル名にしてください',
    'DEFAULT_MODEL cannot be “gpt 4”: must be a model name in provider/model form, like “openai/gpt-4o-mini”',
  ],
  [
    e('config.invalidValue', { key: 'FOO', value: 'x', reason: 'needs a blue moon' }),
    'FOO の値「x」は使えません: needs a blue moon',
    'FOO cannot be “x”: needs a blue moon',
  ],
  [e('tool.unknown', { name: 'fly' }), '「fly」というツールはありません', 'There is no tool named “fly”'],
  [e('tool.failed', { detail: 'lookup backend is down' }), 'lookup backend is down', 'lookup backend is down'],
]

describe('localizeError', () => {
  it.each(CASES)('%j', (info, inJa, inEn) => {
    expect(localizeError(info, ja)).toBe(inJa)
    expect(localizeError(info, en)).toBe(inEn)
    // The same error as a rejected binding call (an AppError) reads the same.
    expect(localizeError(toError(info), ja)).toBe(inJa)
  })

  it('keeps the English message of an error without a code or with a code the window does not know', () => {
    expect(localizeError(e('', {}, 'database is locked'), ja)).toBe('database is locked')
    expect(localizeError(e('future.code', {}, 'something new'), ja)).toBe('something new')
    expect(localizeError('plain text', ja)).toBe('plain text')
    expect(localizeError('', ja)).toBe('')
    expect(localizeError(new Error('boom'), en)).toBe('boom')
  })

  it('words an error by its code and params only: a bare text is never matched back to a code', () => {
    const msg = 'a title needs 1 to 200 characters'
    const info = { code: 'session.titleLength', params: { max: 200 }, message: msg }
    expect(errorMessage(info)).toBe(msg)
    expect(localizeError(info, ja)).toBe('タイトルは 1〜200 文字にしてください')
    // The stores keep the value, not the text: a text alone stays as it is,
    // even right after the error it came from was seen.
    expect(localizeError(toError(info).message, ja)).toBe(msg)
    expect(infoOf(msg)).toEqual({ code: '', message: msg })
  })
})

describe('toError', () => {
  it('builds an AppError from a structured rejection: the Wails runtime\'s Error holding the JSON, the object, or the JSON', () => {
    const info = e('notes.pageNotFound', { id: 7 }, 'note page 7: not found')
    // Wails v2 rejects with new Error(<the ErrorFormatter's value>)
    for (const reasonValue of [new Error(JSON.stringify(info)), info, JSON.stringify(info)]) {
      const err = toError(reasonValue)
      expect(err).toBeInstanceOf(AppError)
      expect(err.message).toBe('note page 7: not found')
      expect((err as AppError).code).toBe('notes.pageNotFound')
      expect((err as AppError).params).toEqual({ id: 7 })
    }
    expect(infoOf(toError(info))).toEqual(info)
  })

  it('keeps plain rejections as plain Errors', () => {
    const plain = new Error('boom')
    expect(toError(plain)).toBe(plain)
    expect(toError('boom')).not.toBeInstanceOf(AppError)
    expect(toError('boom').message).toBe('boom')
    expect(toError('{not json').message).toBe('{not json')
  })
})

describe('settingRejection', () => {
  it('finds the key and the coded reason of a refused value', () => {
    const err = e('config.invalidValue', { key: 'MAX_OUTPUT_TOKENS', value: '0', reason: reason('intMin', { min: '1' }) })
    const r = settingRejection(toError(err), ['MAX_OUTPUT_TOKENS', 'DEBUG'])
    expect(r?.key).toBe('MAX_OUTPUT_TOKENS')
    expect(localizeError(r?.reason, ja)).toBe('1 以上の整数にしてください')
    expect(settingRejection(err, ['LOG_LEVEL'])).toBeNull()
  })

  it('falls back to an error that names exactly one edited key', () => {
    expect(settingRejection('database is locked while saving DEBUG', ['DEBUG', 'LOG_LEVEL'])).toEqual({
      key: 'DEBUG', reason: 'database is locked while saving DEBUG',
    })
    expect(settingRejection('database is locked', ['LOG_LEVEL'])).toBeNull()
  })
})

describe('toastText', () => {
  const toast = (over: Partial<Toast>): Toast => ({ id: 1, kind: 'error', message: '', ...over })

  it('words error toasts by code, keeping a prefix, and leaves other toasts alone', () => {
    const starting = e('app.starting', {}, 'playchat is still starting')
    expect(
      toastText(toast({ message: '起動時の読み込みに失敗しました: playchat is still starting', prefix: '起動時の読み込みに失敗しました', error: starting }), ja),
    ).toBe('起動時の読み込みに失敗しました: playchat はまだ起動中です。少し待ってからもう一度試してください')
    // Without the value the toast shows its text as pushed.
    expect(toastText(toast({ message: 'playchat is still starting' }), ja)).toBe('playchat is still starting')
    expect(toastText(toast({ kind: 'info', message: 'playchat is still starting' }), ja)).toBe('playchat is still starting')
  })
})
