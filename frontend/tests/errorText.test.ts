import { describe, expect, it } from 'vitest'
import { toastText, type Toast } from '@/stores/toasts'
import { localizeError, localizeSettingReason, unquote, type Translate } from '@/utils/errorText'
import { testI18n } from './helpers'

const translator = (locale: 'ja' | 'en'): Translate => {
  const { t } = testI18n(locale).global
  return (key, params) => t(key, params ?? {})
}
const ja = translator('ja')
const en = translator('en')

// [backend message, Japanese, English]
const CASES: [string, string, string][] = [
  // llm.APIError: status, detail and a hint by status class
  [
    'provider returned 500: fake 500 error',
    'モデルのサーバーがエラーを返しました（500）: fake 500 error\nプロバイダー側の障害です。時間をおいてもう一度試してください。',
    'The model server returned an error (500): fake 500 error\nThe provider is having trouble on its side: try again later.',
  ],
  [
    'provider returned 503: Service Unavailable',
    'モデルのサーバーがエラーを返しました（503）: Service Unavailable\nプロバイダー側の障害です。時間をおいてもう一度試してください。',
    'The model server returned an error (503): Service Unavailable\nThe provider is having trouble on its side: try again later.',
  ],
  [
    'provider returned 429: Rate limit reached for requests',
    'モデルのサーバーがエラーを返しました（429）: Rate limit reached for requests\n利用の上限（レート制限）に達しました。しばらく待ってからもう一度試してください。',
    'The model server returned an error (429): Rate limit reached for requests\nThe rate limit was reached: wait a moment and try again.',
  ],
  [
    'provider returned 401: Incorrect API key provided: sk-[redacted]',
    'モデルのサーバーがエラーを返しました（401）: Incorrect API key provided: sk-[redacted]\nAPI キーが受け付けられませんでした。設定の API キー（とその権限）を確認してください。',
    'The model server returned an error (401): Incorrect API key provided: sk-[redacted]\nThe API key was not accepted: check the key (and what it may access) in Settings.',
  ],
  [
    'provider returned 403: Forbidden',
    'モデルのサーバーがエラーを返しました（403）: Forbidden\nAPI キーが受け付けられませんでした。設定の API キー（とその権限）を確認してください。',
    'The model server returned an error (403): Forbidden\nThe API key was not accepted: check the key (and what it may access) in Settings.',
  ],
  [
    'provider returned 404: model "llama9" not found, try pulling it first',
    'モデルのサーバーがエラーを返しました（404）: model "llama9" not found, try pulling it first',
    'The model server returned an error (404): model "llama9" not found, try pulling it first',
  ],
  ['provider error: overloaded', 'モデルのサーバーがエラーを返しました: overloaded', 'The model server returned an error: overloaded'],
  // chat.userError
  [
    'cannot reach the model server at http://localhost:11434 (connection refused)',
    'モデルのサーバー http://localhost:11434 に接続できません（接続を拒否されました）\nサーバーが起動しているか、設定の URL が正しいかを確認してください。',
    'Cannot reach the model server at http://localhost:11434 (connection refused)\nCheck that the server is running and that its URL in Settings is right.',
  ],
  [
    'cannot reach the model server at https://api.openai.com (timed out)',
    'モデルのサーバー https://api.openai.com に接続できません（タイムアウトしました）\nサーバーが起動しているか、設定の URL が正しいかを確認してください。',
    'Cannot reach the model server at https://api.openai.com (timed out)\nCheck that the server is running and that its URL in Settings is right.',
  ],
  [
    'cannot reach the model server at https://example.test (tls: failed to verify certificate (x509))',
    'モデルのサーバー https://example.test に接続できません（tls: failed to verify certificate (x509)）\nサーバーが起動しているか、設定の URL が正しいかを確認してください。',
    'Cannot reach the model server at https://example.test (tls: failed to verify certificate (x509))\nCheck that the server is running and that its URL in Settings is right.',
  ],
  [
    'stream interrupted before the reply finished: unexpected EOF',
    '返答の途中で接続が切れました（unexpected EOF）',
    'The connection dropped before the reply finished (unexpected EOF)',
  ],
  [
    'stream interrupted before the reply finished: the stream ended without a finish_reason',
    '返答の途中で接続が切れました（サーバーが返答の終わりを知らせないまま通信を終えました）',
    'The connection dropped before the reply finished (the server ended the stream without saying the reply was complete)',
  ],
  [
    'stream interrupted before the reply finished: read tcp 127.0.0.1:5000: connection reset by peer',
    '返答の途中で接続が切れました（read tcp 127.0.0.1:5000: connection reset by peer）',
    'The connection dropped before the reply finished (read tcp 127.0.0.1:5000: connection reset by peer)',
  ],
  ['stream interrupted before the reply finished', '返答の途中で接続が切れました', 'The connection dropped before the reply finished'],
  [
    'the model reached the tool-call limit (3 rounds): it kept calling tools and gave no answer',
    'モデルがツール呼び出しの上限（3 回）に達し、ツールを呼び続けたまま回答しませんでした（上限は設定の TOOL_MAX_ROUNDS で変えられます）',
    'The model reached the tool-call limit (3 rounds): it kept calling tools and gave no answer (TOOL_MAX_ROUNDS in Settings sets the limit)',
  ],
  // chat.Service
  [
    'no model is configured: choose one in the model picker or set DEFAULT_MODEL in Settings',
    'モデルが設定されていません。モデル選択で選ぶか、設定で DEFAULT_MODEL を指定してください',
    'No model is configured: choose one in the model picker or set DEFAULT_MODEL in Settings',
  ],
  ['the message is empty', 'メッセージが空です', 'The message is empty'],
  [
    'the message is too long (5242881 bytes, at most 4 MiB)',
    'メッセージが長すぎます（5242881 バイト、上限は 4 MiB）',
    'The message is too long (5242881 bytes; the limit is 4 MiB)',
  ],
  ['the message is not valid UTF-8', 'メッセージに UTF-8 として正しくないデータが含まれています', 'The message is not valid UTF-8 text'],
  [
    'the message is too long for this model: about 9000 tokens, the context window allows 8192',
    'メッセージがこのモデルには長すぎます。約 9000 トークンありますが、コンテキストウィンドウに入るのは 8192 トークンまでです',
    'The message is too long for this model: about 9000 tokens, but the context window allows 8192',
  ],
  ['playchat is still starting', 'playchat はまだ起動中です。少し待ってからもう一度試してください', 'playchat is still starting: wait a moment and try again'],
  // llm.ResolveModel
  [
    'unknown model provider: "gpt-4o" (want provider/model with provider one of openai, anthropic, ollama, lm_studio, openrouter)',
    '「gpt-4o」のプロバイダーがわかりません。provider/model の形式で、provider には openai, anthropic, ollama, lm_studio, openrouter のいずれかを指定してください',
    'Unknown model provider in “gpt-4o”: write provider/model, with provider one of openai, anthropic, ollama, lm_studio, openrouter',
  ],
  ['unknown model provider: "foo"', '「foo」というモデルのプロバイダーはありません', 'There is no model provider “foo”'],
  [
    'missing API key: OPENAI_API_KEY is not set',
    'OPENAI_API_KEY が設定されていません。設定で API キーを入力してください',
    'OPENAI_API_KEY is not set: enter the API key in Settings',
  ],
  [
    'missing API key: ANTHROPIC_API_KEY is not set (needed for "anthropic/claude-3-5-haiku-latest")',
    '「anthropic/claude-3-5-haiku-latest」を使うには ANTHROPIC_API_KEY が必要ですが、設定されていません。設定で API キーを入力してください',
    '“anthropic/claude-3-5-haiku-latest” needs ANTHROPIC_API_KEY, which is not set: enter the API key in Settings',
  ],
  [
    'missing API key: OPENROUTER_API_KEY is not set (needed for "openrouter/meta-llama/llama-3-8b")',
    '「openrouter/meta-llama/llama-3-8b」を使うには OPENROUTER_API_KEY が必要ですが、設定されていません。設定で API キーを入力してください',
    '“openrouter/meta-llama/llama-3-8b” needs OPENROUTER_API_KEY, which is not set: enter the API key in Settings',
  ],
  ['no model selected', 'モデルが選ばれていません', 'No model is selected'],
  [
    'no model selected: "openai/ " names no model after the provider',
    '「openai/ 」にはプロバイダーの後にモデル名がありません（例: openai/gpt-4o-mini）',
    '“openai/ ” names no model after the provider (e.g. openai/gpt-4o-mini)',
  ],
  ['no model selected for the summary', 'モデルが選ばれていません（for the summary）', 'No model is selected (for the summary)'],
  // notes
  [
    'note page 3 is titled "Plans": a note page with this title already exists',
    '「Plans」というタイトルのノートページはすでにあります（ページ 3）',
    'A note page titled “Plans” already exists (page 3)',
  ],
  ['the title is empty: invalid input', 'タイトルが空です', 'The title is empty'],
  [
    'the title is 250 characters; at most 200 are allowed: invalid input',
    'タイトルが長すぎます（250 文字、上限は 200 文字）',
    'The title is too long (250 characters; at most 200)',
  ],
  ['the title must be one line: invalid input', 'タイトルは 1 行にしてください', 'The title must be one line'],
  ['the title is not valid UTF-8: invalid input', 'タイトルに UTF-8 として正しくないデータが含まれています', 'The title is not valid UTF-8 text'],
  [
    'the section name is 120 characters; at most 100 are allowed: invalid input',
    'セクション名が長すぎます（120 文字、上限は 100 文字）',
    'The section name is too long (120 characters; at most 100)',
  ],
  ['the section name must be one line: invalid input', 'セクション名は 1 行にしてください', 'The section name must be one line'],
  ['the section name is not valid UTF-8: invalid input', 'セクション名に UTF-8 として正しくないデータが含まれています', 'The section name is not valid UTF-8 text'],
  [
    'the content is 2000000 bytes; at most 1048576 (1 MiB) are allowed: invalid input',
    '本文が長すぎます（2000000 バイト、上限は 1048576 バイト = 1 MiB）',
    'The page is too long (2000000 bytes; at most 1048576, that is 1 MiB)',
  ],
  ['the content is not valid UTF-8: invalid input', '本文に UTF-8 として正しくないデータが含まれています', 'The page is not valid UTF-8 text'],
  [
    'name the section to rename (ungrouped pages have no section): invalid input',
    '名前を変えるセクションを指定してください（セクションなしのページには名前がありません）',
    'Name the section to rename (pages with no section have no name to change)',
  ],
  [
    'the order must list each of the 3 pages exactly once (missing page ids [3]; duplicated page ids [1]); nothing was changed: invalid input',
    '並び順には 3 ページすべてを 1 回ずつ入れる必要があるため、何も変更していません（missing page ids [3]; duplicated page ids [1]）',
    'The order must list each of the 3 pages exactly once, so nothing was changed (missing page ids [3]; duplicated page ids [1])',
  ],
  [
    'the order splits section "Work" (page 2 at position 0 is apart from page 5 at position 2); nothing was changed: invalid input',
    'この並び順ではセクション「Work」が分かれてしまうため、何も変更していません（page 2 at position 0 is apart from page 5 at position 2）',
    'That order would split the section “Work”, so nothing was changed (page 2 at position 0 is apart from page 5 at position 2)',
  ],
  [
    'the tags are too many: invalid input',
    'ノートの入力内容が正しくありません（the tags are too many）',
    'The note input is not valid (the tags are too many)',
  ],
  ['note page 7: not found', 'ノートページ 7 が見つかりません（削除された可能性があります）', 'Note page 7 was not found (it may have been deleted)'],
  ['section "Old" has no pages: not found', 'セクション「Old」にはページがありません', 'The section “Old” has no pages'],
  // session import: the English list of problems stays
  [
    'invalid session file: format is "x", want "playchat-session": not a playchat session file; messages[0].role should be text, not a JSON number',
    'playchat のセッションファイルとして読み込めません: format is "x", want "playchat-session": not a playchat session file; messages[0].role should be text, not a JSON number',
    'This is not a valid playchat session file: format is "x", want "playchat-session": not a playchat session file; messages[0].role should be text, not a JSON number',
  ],
  // config.ValueError
  [
    'config: invalid MEMORY_SUMMARIZE_THRESHOLD "2" from the settings: must be an integer ≥ 4',
    'MEMORY_SUMMARIZE_THRESHOLD の値「2」（設定元: 設定画面）は使えません: 4 以上の整数にしてください',
    'MEMORY_SUMMARIZE_THRESHOLD cannot be “2” (set in Settings): must be a whole number ≥ 4',
  ],
  [
    'config: invalid MAX_OUTPUT_TOKENS "0": must be an integer ≥ 1',
    'MAX_OUTPUT_TOKENS の値「0」は使えません: 1 以上の整数にしてください',
    'MAX_OUTPUT_TOKENS cannot be “0”: must be a whole number ≥ 1',
  ],
  [
    'config: invalid LOCAL_KB_MIN_SCORE "1.5": must be a number from 0 to 1',
    'LOCAL_KB_MIN_SCORE の値「1.5」は使えません: 0 から 1 までの数値にしてください',
    'LOCAL_KB_MIN_SCORE cannot be “1.5”: must be a number from 0 to 1',
  ],
  [
    'config: invalid LOCAL_KB_MIN_SCORE "-1" from .env: must be a number between 0 and 1',
    'LOCAL_KB_MIN_SCORE の値「-1」（設定元: .env）は使えません: 0 から 1 までの数値にしてください',
    'LOCAL_KB_MIN_SCORE cannot be “-1” (set in .env): must be a number from 0 to 1',
  ],
  [
    'config: invalid OLLAMA_API_BASE "localhost:11434" from the environment: must be an absolute http:// or https:// URL',
    'OLLAMA_API_BASE の値「localhost:11434」（設定元: 環境変数）は使えません: http:// または https:// で始まる完全な URL にしてください',
    'OLLAMA_API_BASE cannot be “localhost:11434” (set in the environment): must be a full http:// or https:// URL',
  ],
  [
    'config: invalid OPENAI_BASE_URL "ftp://x": must be an absolute http(s) URL',
    'OPENAI_BASE_URL の値「ftp://x」は使えません: http:// または https:// で始まる完全な URL にしてください',
    'OPENAI_BASE_URL cannot be “ftp://x”: must be a full http:// or https:// URL',
  ],
  [
    'config: invalid OPENAI_API_KEY (value hidden): must not contain spaces or control characters',
    'OPENAI_API_KEY の値は使えません: 空白や制御文字を含めないでください',
    'The value of OPENAI_API_KEY is not valid: must not contain spaces or control characters',
  ],
  [
    'config: invalid TAVILY_API_KEY (value hidden) from .env: must not contain spaces or control characters',
    'TAVILY_API_KEY の値（設定元: .env）は使えません: 空白や制御文字を含めないでください',
    'The value of TAVILY_API_KEY set in .env is not valid: must not contain spaces or control characters',
  ],
  [
    'config: invalid KNOWLEDGE_BASE_DIR "a\\x01b": must not contain control characters',
    'KNOWLEDGE_BASE_DIR の値「a\\x01b」は使えません: 制御文字を含めないでください',
    'KNOWLEDGE_BASE_DIR cannot be “a\\x01b”: must not contain control characters',
  ],
  [
    'config: invalid DEBUG "maybe": must be true or false',
    'DEBUG の値「maybe」は使えません: true か false にしてください',
    'DEBUG cannot be “maybe”: must be true or false',
  ],
  [
    'config: invalid LOG_LEVEL "loud": must be one of debug, info, warn, error',
    'LOG_LEVEL の値「loud」は使えません: debug, info, warn, error のいずれかにしてください',
    'LOG_LEVEL cannot be “loud”: must be one of debug, info, warn, error',
  ],
  [
    'config: invalid DEFAULT_MODEL "gpt 4": must be a model name like "openai/gpt-4o-mini"',
    'DEFAULT_MODEL の値「gpt 4」は使えません: 「openai/gpt-4o-mini」のような provider/model 形式のモデル名にしてください',
    'DEFAULT_MODEL cannot be “gpt 4”: must be a model name in provider/model form, like “openai/gpt-4o-mini”',
  ],
  [
    'config: invalid CONTEXT_WINDOW_TOKENS "say \\"lots\\"": must be an integer ≥ 0',
    'CONTEXT_WINDOW_TOKENS の値「say "lots"」は使えません: 0 以上の整数にしてください',
    'CONTEXT_WINDOW_TOKENS cannot be “say "lots"”: must be a whole number ≥ 0',
  ],
  [
    'config: invalid FOO "x": needs a blue moon',
    'FOO の値「x」は使えません: needs a blue moon',
    'FOO cannot be “x”: needs a blue moon',
  ],
  ['config: unknown configuration key: "FOO"', 'FOO という設定項目はありません', 'There is no setting named FOO'],
  // api logs
  ['cancelled (stopped by the user)', 'キャンセルされました（ユーザーが停止しました）', 'Cancelled (stopped by the user)'],
]

describe('localizeError', () => {
  it.each(CASES)('%s', (message, inJa, inEn) => {
    expect(localizeError(message, ja)).toBe(inJa)
    expect(localizeError(message, en)).toBe(inEn)
  })

  it.each([
    'database is locked',
    'session 1234: not found',
    'Provider returned 500: capitalised differently',
    'turn x: provider returned 500: not at the start',
    'the message is empty!',
    'provider returned 5000 vectors for 2 inputs',
    'embeddings: provider returned 3 vectors for 4 inputs',
    'config: read .env: permission denied',
    '',
  ])('returns unknown text unchanged: %j', (message) => {
    expect(localizeError(message, ja)).toBe(message)
    expect(localizeError(message, en)).toBe(message)
  })
})

describe('localizeSettingReason', () => {
  it('translates the reason alone, as shown under a field', () => {
    expect(localizeSettingReason('must be an integer ≥ 4', ja)).toBe('4 以上の整数にしてください')
    expect(localizeSettingReason('must be an integer from 1 to 10', ja)).toBe('1 から 10 までの整数にしてください')
    expect(localizeSettingReason('must be a number ≤ 2', en)).toBe('must be a number ≤ 2')
    expect(localizeSettingReason('must be an integer', ja)).toBe('整数にしてください')
  })

  it('passes other text on to localizeError', () => {
    expect(localizeSettingReason('playchat is still starting', ja)).toBe(
      'playchat はまだ起動中です。少し待ってからもう一度試してください',
    )
    expect(localizeSettingReason('must be purple', ja)).toBe('must be purple')
  })
})

describe('unquote', () => {
  it('reads Go %q strings, keeping escapes JSON does not know', () => {
    expect(unquote('"a \\"b\\" c"')).toBe('a "b" c')
    expect(unquote('"日本語"')).toBe('日本語')
    expect(unquote('"a\\x01b"')).toBe('a\\x01b')
  })
})

describe('toastText', () => {
  const toast = (over: Partial<Toast>): Toast => ({ id: 1, kind: 'error', message: '', ...over })

  it('translates error toasts, keeping a prefix, and leaves other toasts alone', () => {
    expect(toastText(toast({ message: 'the message is empty' }), ja)).toBe('メッセージが空です')
    expect(
      toastText(toast({ message: '起動時の読み込みに失敗しました: playchat is still starting', prefix: '起動時の読み込みに失敗しました' }), ja),
    ).toBe('起動時の読み込みに失敗しました: playchat はまだ起動中です。少し待ってからもう一度試してください')
    expect(toastText(toast({ kind: 'info', message: 'the message is empty' }), ja)).toBe('the message is empty')
  })
})
