// Attachments on a message (issue 25: the paperclip, the chips above the
// message box, files in the history), in Japanese; part of ja.ts, keys in
// step with attach-en.ts.
const attach = {
  attach: {
    button: 'ファイルを添付',
    pickerTitle: '添付するファイル',
    chips: '添付ファイル',
    remove: '{name} を外す',
    adding: '追加しています…',
    pages: '{n} ページ',
    chars: '{n} 文字',
    noVision: '{model} は画像を読めないため、画像付きのメッセージは送られません。画像を読めるモデルを選ぶか、画像を外すか、読めるモデルなら下のボタンで設定してください。',
    notAFile: '添付できるのはファイルだけです。ドロップされたものはファイルではありません（リンクを送るには、アドレスをメッセージに貼り付けてください）。',
    noVisionSet: '{model} は画像を受け付けない設定なので、画像付きのメッセージは送られません。別のモデルを選ぶか、画像を外すか、設定を変えてください。',
    canSee: 'このモデルは画像を読めます',
    canSeeSaved: '{model} を画像を受け付けるモデルに設定しました（設定 › モデル）',
    dropHint: 'ここにドロップして添付',
    image: '画像 {name}',
    imageFailed: '画像 {name} を表示できません',
    open: '{name} を開く',
    close: '閉じる',
    // 添付文書がモデルに収まらないときの提案（送信エラー chat.attachmentTooLong）
    viewer: {
      label: '文書 {name}',
      loading: '{name} を読み込んでいます…',
      failed: '{name} を表示できません：{reason}',
      copy: 'テキストをコピー',
      copied: 'コピーしました',
      sentNote: '下は全文です。モデルに送ったのはその部分だけです。',
    },
    fit: {
      label: 'モデルに収まらない文書',
      pages: 'この文書はモデルには長すぎます。{name} の {total} ページのうち 1〜{fit} ページが収まります。',
      onePage: 'この文書はモデルには長すぎます。{name} の {total} ページのうち 1 ページ目だけが収まります。',
      chars: 'この文書はモデルには長すぎます。{name} の {total} 文字のうち最初の {fit} 文字が収まります。',
      none: '{name} はモデルには長すぎ、メッセージと一緒では最初の部分も収まりません。',
      noneMany: '添付した文書はこのモデルには長すぎ、一部ずつでも全部は収まりません（{name} ほか {others} 件）。',
      others: 'ほかの添付文書も、必要なら同じように収まる分だけを送ります。',
      kbHint: 'ナレッジベースに追加すると、質問ごとに関連する部分だけが検索されて使われます。',
      sendPages: '1〜{fit} ページを送信',
      sendPage: '1 ページ目を送信',
      sendChars: '最初の {fit} 文字を送信',
      addToKb: 'ナレッジベースに追加',
      adding: 'ナレッジベースに追加しています…',
      cancel: 'キャンセル',
      added: 'ナレッジベースに追加しました: {paths}',
      sentPages: '送信したのは {total} ページ中 1〜{fit} ページ',
      sentPage: '送信したのは {total} ページ中 1 ページ目',
      sentChars: '送信したのは {total} 文字中 最初の {fit} 文字',
    },
  },
}

export default attach
