// Settings → ツール (MCP) (ToolsSection) and the approval buttons of a
// tool call in the activity list, in Japanese; part of ja.ts, keys in step
// with tools-en.ts.
const tools = {
  mcpTools: {
    form: {
      add: 'サーバーを追加…',
      name: '名前',
      stdio: 'コマンド（stdio）',
      http: 'URL（Streamable HTTP）',
      command: 'コマンド',
      args: '引数（1 行に 1 つ）',
      env: '環境変数（1 行に 名前=値）',
      cwd: '作業フォルダー（任意）',
      headers: 'ヘッダー（1 行に 名前: 値）',
      save: '追加',
      cancel: 'キャンセル',
      badLine: '区切りのない行があります: {line}',
    },
    title: 'ツール (MCP)',
    intro: '自分の MCP サーバー（ファイル、GitHub、ブラウザ、データベースなど）を追加すると、チャット中にモデルがそのツールを使えます。Claude Desktop・Cursor の mcpServers、VS Code の servers、Claude Code の .mcp.json をそのまま貼り付けられます。',
    pastePlaceholder: 'mcpServers の JSON を貼り付け',
    import: '取り込む',
    importOthers: '残りだけ取り込む',
    imported: '{n} 件のサーバーを追加しました',
    refused: '{name}: {reason}',
    nothingImported: '取り込めない項目があったため、何も変更していません。',
    none: 'MCP サーバーはまだありません。',
    states: {
      starting: '起動中…',
      ready: '準備完了（ツール {n} 個）',
      failed: '失敗',
      not_responding: '応答なし',
      stopped: '停止',
      disabled: 'オフ',
    },
    exitCode: '終了コード {code}',
    stderr: 'エラー出力（最後の行）',
    logFile: 'ログ: {file}',
    restart: '再起動',
    remove: '削除',
    removeConfirm: 'MCP サーバー「{name}」を削除しますか？',
    enabled: '使う',
    askFirst: 'すべて実行前に確認',
    alwaysAllow: 'このサーバーは常に許可',
    allowDiscord: 'Discord でも使う',
    destructive: '実行前に確認',
    modelName: 'モデルに送る名前: {name}',
    toolsTitle: 'ツール',
  },
  toolApproval: {
    ask: 'このツールを実行してよいですか？',
    once: '今回だけ許可',
    always: 'このサーバーは常に許可',
    deny: '拒否',
    decided: {
      once: '今回だけ許可しました',
      always: 'このサーバーを常に許可しました',
      deny: '拒否しました',
    },
  },
}

export default tools
