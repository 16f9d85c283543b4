// The window's start-up error screen (StartupErrorScreen.vue, issue 21), in
// Japanese; part of ja.ts, keys in step with fatal-en.ts.
export default {
  damaged: {
    title: 'データベースが壊れています',
    what: '何も変更していません（playchat はこのファイルに書き込んでいません）。元に戻すには playchat を終了し、データフォルダーをバックアップのコピーで置き換えてから、もう一度起動してください。',
    whatRunning: 'playchat は壊れているのに気づいた時点でこのデータベースへの書き込みを止めました。playchat を終了し、データフォルダーをバックアップのコピーで置き換えてから、もう一度起動してください。',
    noBackup: 'バックアップがない場合は、playchat.db（あれば playchat.db-wal と playchat.db-shm も）をフォルダーの外へ移してください。playchat は空の履歴で起動し、壊れたファイルは復旧用に残ります（sqlite3 の .recover などで一部を取り出せることがあります）。',
  },
  newer: {
    title: '新しいバージョンの playchat のデータです',
    what: '何も変更していません。新しいバージョンをこのバージョンで置き換えてしまった場合は、入れ直すとこのフォルダーを開けます。',
  },
  other: {
    title: 'playchat を起動できませんでした',
  },
  dataFolder: 'データフォルダー',
  openFolder: 'データフォルダーを開く',
  quit: '終了',
}
