// Japanese help text for the known settings keys. The backend sends an
// English one-line `doc` with every field; it is shown for keys not listed
// here and in the English UI.
const docs: Record<string, string> = {
  DEFAULT_MODEL: '新しいチャットで使うモデル。"provider/model" 形式（例: "openai/gpt-4o-mini"）。',
  SUMMARY_MODEL: '古いメッセージをメモリに要約するモデル。空ならそのチャットのモデルを使います。',
  EMBEDDING_MODEL: 'ローカルのナレッジベース用の埋め込みモデル（"provider/model"）。空なら埋め込みを使いません。',
  CONTEXT_WINDOW_TOKENS: 'コンテキストウィンドウのトークン数（0 以上）。0 なら内蔵のモデル表の値を使います。',
  MAX_OUTPUT_TOKENS: '返答のために確保し max_tokens として送るトークン数（1 以上）。',
  TOOL_MAX_ROUNDS: '1 回の応答でツールを呼び出せる最大ラウンド数（1 以上）。',
  REMINDER_MAX_AHEAD_DAYS: 'リマインドを設定できる最も先の日数（1〜3650）。それより先の日時は断られます。',
  CLOSE_TO_TRAY: 'ウィンドウを閉じるとシステムトレイに隠れ、リマインドは引き続き届きます。デスクトップにトレイがなければ閉じると終了します。',
  START_AT_LOGIN: 'ログイン時に playchat をシステムトレイに隠れた状態で起動します（XDG 自動起動エントリ。今は Linux のみ）。',
  OPENAI_API_KEY: 'openai/ モデル用の API キー。',
  OPENAI_BASE_URL: 'openai/ モデル用の OpenAI 互換 API のベース URL。空なら api.openai.com。',
  ANTHROPIC_API_KEY: 'anthropic/ モデル用の API キー。',
  ANTHROPIC_BASE_URL: 'Anthropic の OpenAI 互換 API のベース URL。空なら Anthropic 公式。',
  OLLAMA_API_BASE: 'ollama/ モデル用の Ollama サーバーのベース URL。',
  LM_STUDIO_API_BASE: 'lm_studio/ モデル用の LM Studio サーバーのベース URL。',
  OPENROUTER_API_KEY: 'openrouter/ モデル用の API キー。',
  MEMORY_SUMMARIZE_THRESHOLD: 'この件数のメッセージがたまると古い半分を要約します（4 以上）。',
  SESSION_NOTES_CONTENT_LIMIT: 'ピン留めしたノート 1 ページあたりコンテキストに含める文字数（1 以上）。',
  KNOWLEDGE_CONTEXT_LIMIT: 'コンテキストに含める最近の学習済みナレッジの見出し数（0 以上、0 で無効）。',
  LOCAL_KB_TOP_K: 'コンテキストに含めるローカルナレッジベースの文書数（0 以上、0 で無効）。',
  LOCAL_KB_MIN_SCORE: 'ローカルナレッジベースの文書を含めるコサイン類似度の下限（0〜1）。',
  KNOWLEDGE_BASE_DIR: 'ローカルの Markdown ナレッジベースのフォルダ。空なら <データフォルダ>/knowledge_base、相対パスはデータフォルダ基準。',
  TAVILY_API_KEY: 'Tavily ウェブ検索（web_search ツール）の API キー。',
  DISCORD_BOT_TOKEN: 'Discord ボットのトークン。空ならボットは動きません。',
  DEBUG: '詳細な診断情報（LLM リクエストの完全なトレースなど。秘密情報は伏せられます）。',
  LOG_LEVEL: 'ログファイルに書く最低レベル: debug・info・warn・error。',
  UI_LANGUAGE: 'ウィンドウの表示言語: auto（OS に合わせる）・ja・en。',
}

/**
 * Japanese plain labels of the settings keys (the backend sends the English
 * `label`); the key name is shown under the label for people who use .env.
 */
export const labels: Record<string, string> = {
  DEFAULT_MODEL: '既定のモデル',
  OPENAI_API_KEY: 'OpenAI の API キー',
  ANTHROPIC_API_KEY: 'Anthropic の API キー',
  OPENROUTER_API_KEY: 'OpenRouter の API キー',
  OLLAMA_API_BASE: 'Ollama サーバーのアドレス',
  LM_STUDIO_API_BASE: 'LM Studio サーバーのアドレス',
  OPENAI_BASE_URL: 'OpenAI 互換 API のアドレス',
  ANTHROPIC_BASE_URL: 'Anthropic API のアドレス',
  SUMMARY_MODEL: '要約に使うモデル',
  MEMORY_SUMMARIZE_THRESHOLD: '要約を始めるメッセージ数',
  SESSION_NOTES_CONTENT_LIMIT: 'ピン留めノート 1 ページの文字数',
  KNOWLEDGE_BASE_DIR: 'ナレッジベースのフォルダ',
  EMBEDDING_MODEL: '埋め込みモデル',
  LOCAL_KB_TOP_K: '返答に使う文書の数',
  LOCAL_KB_MIN_SCORE: '一致度の下限',
  KNOWLEDGE_CONTEXT_LIMIT: '学習済みナレッジの見出し数',
  TAVILY_API_KEY: 'Tavily ウェブ検索の API キー',
  UI_LANGUAGE: '表示言語',
  CONTEXT_WINDOW_TOKENS: 'コンテキストウィンドウ（トークン）',
  MAX_OUTPUT_TOKENS: '返答の長さの上限（トークン）',
  TOOL_MAX_ROUNDS: '1 回の返答でのツール呼び出し回数',
  REMINDER_MAX_AHEAD_DAYS: 'リマインドを設定できる日数',
  CLOSE_TO_TRAY: '閉じるとシステムトレイに隠す',
  START_AT_LOGIN: 'ログイン時に起動',
  DISCORD_BOT_TOKEN: 'Discord ボットのトークン',
  DEBUG: 'デバッグモード',
  LOG_LEVEL: 'ログの詳しさ',
}

export default docs
