// Package benchtext writes the synthetic chat history benchmarks fill
// their databases with: short Japanese messages with some English, from
// word lists where frequent words appear in many messages and rare ones in
// few, as in a real history. The same seed gives the same text.
package benchtext

import (
	"math/rand/v2"
	"strings"
)

// The vocabulary: Common words appear in many messages, Rare ones in few;
// Verbs end sentences, Latin words are mixed in.
var (
	Common = strings.Fields(`今日 天気 仕事 会議 資料 確認 予定 質問 回答 説明 問題 方法 設定 変更 データ
		ファイル 画面 表示 機能 時間 場所 電車 料理 旅行 写真 音楽 映画 本 猫 犬 家族 友達 コード 関数 エラー`)
	Rare = strings.Fields(`漱石 吾輩 ワガハイ 鎌倉 琵琶湖 富士山 ラーメン 味噌汁 量子 相対性 黒船 蒸気機関
		ゴーヤ 沖縄 札幌 函館 將棋 囲碁 俳句 短歌 sourdough kubernetes postgres wails vitest`)
	Verbs = strings.Fields(`書きました 読みます 調べた 教えてください 作りたい 行きました 見ました 考えています`)
	Latin = strings.Fields(`the deploy build test server client request response cache index`)
)

// Message returns one message of 4 to 17 words (about 60 to 250 bytes).
func Message(r *rand.Rand) string {
	var b strings.Builder
	n := 4 + r.IntN(14)
	for i := 0; i < n; i++ {
		switch k := r.IntN(20); {
		case k == 0:
			b.WriteString(Rare[r.IntN(len(Rare))])
		case k < 4:
			b.WriteString(" " + Latin[r.IntN(len(Latin))] + " ")
		default:
			b.WriteString(Common[r.IntN(len(Common))])
		}
		b.WriteString([]string{"は", "が", "を", "の", "に", "で", "と"}[r.IntN(7)])
		if r.IntN(4) == 0 {
			b.WriteString(Verbs[r.IntN(len(Verbs))] + "。")
		}
	}
	return b.String()
}
