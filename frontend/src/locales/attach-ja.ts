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
    noVision: '{model} は画像を読めません。画像を読めるモデルを選ぶか、画像を外してください。',
    dropHint: 'ここにドロップして添付',
    image: '画像 {name}',
    imageFailed: '画像 {name} を表示できません',
    open: '{name} を開く',
    close: '閉じる',
  },
}

export default attach
