package kb

// corpusQuestion is a natural Japanese question a user might ask and the
// documents of ../shared/corpus that answer it (paths relative to the corpus
// root; any of them counts as a hit).
type corpusQuestion struct {
	Q       string
	Answers []string
}

const (
	rust = "rust-book-ja/src/"
	vue  = "vue-docs-ja/src/"
)

// corpusQuestions were written from the documents' subjects, phrased as a
// user would ask — not copied from headings. They measure retrieval
// (hit@3) and chose the tokenizer; they are not tuned on.
var corpusQuestions = []corpusQuestion{
	{"Rustの所有権のルールってどういうものですか？", []string{rust + "ch04-01-what-is-ownership.md"}},
	{"参照と借用の違いを教えてください", []string{rust + "ch04-02-references-and-borrowing.md"}},
	{"文字列スライスとは何ですか", []string{rust + "ch04-03-slices.md"}},
	{"ライフタイム注釈はどう書けばいいの？", []string{rust + "ch10-03-lifetime-syntax.md"}},
	{"Result型を使ってエラーを呼び出し元に伝える方法は？", []string{rust + "ch09-02-recoverable-errors-with-result.md"}},
	{"panic!を使うべき場面とResultを返すべき場面の判断基準", []string{rust + "ch09-03-to-panic-or-not-to-panic.md"}},
	{"ベクタに値を追加するにはどうしますか", []string{rust + "ch08-01-vectors.md"}},
	{"ハッシュマップでキーが無いときだけ値を挿入したい", []string{rust + "ch08-03-hash-maps.md"}},
	{"スレッド間でメッセージを送るチャンネルの使い方", []string{rust + "ch16-02-message-passing.md"}},
	{"Mutexで複数のスレッドからデータを共有するには", []string{rust + "ch16-03-shared-state.md"}},
	{"Rc<T>で参照カウントするのはなぜですか", []string{rust + "ch15-04-rc.md"}},
	{"RefCellの内部可変性パターンについて知りたい", []string{rust + "ch15-05-interior-mutability.md"}},
	{"クロージャが環境をキャプチャする仕組みは？", []string{rust + "ch13-01-closures.md"}},
	{"Cargoで新しいプロジェクトを作ってビルドする手順", []string{rust + "ch01-03-hello-cargo.md"}},
	{"自作のクレートをcrates.ioに公開する方法", []string{rust + "ch14-02-publishing-to-crates-io.md"}},
	{"テストを並列ではなく順番に実行したい", []string{rust + "ch11-02-running-tests.md"}},
	{"トレイトオブジェクトで異なる型の値をまとめて扱うには", []string{rust + "ch17-02-trait-objects.md"}},
	{"unsafeブロックの中では何ができるようになりますか", []string{rust + "ch19-01-unsafe-rust.md"}},
	{"matchで全てのパターンを網羅しないとどうなる？", []string{rust + "ch06-02-match.md"}},
	{"シャドーイングとmutな変数の違いは何？", []string{rust + "ch03-01-variables-and-mutability.md"}},
	{"親コンポーネントから子コンポーネントにpropsでデータを渡す方法", []string{vue + "guide/components/props.md", vue + "tutorial/src/step-12/description.md"}},
	{"子コンポーネントから親にイベントを発行するには？", []string{vue + "guide/components/events.md", vue + "tutorial/src/step-13/description.md"}},
	{"算出プロパティとメソッドの違いは何ですか", []string{vue + "guide/essentials/computed.md", vue + "tutorial/src/step-8/description.md"}},
	{"v-ifとv-showはどう使い分ければいいですか", []string{vue + "guide/essentials/conditional.md"}},
	{"v-forでリストを描画するときkeyを指定するのはなぜ", []string{vue + "guide/essentials/list.md", vue + "tutorial/src/step-7/description.md"}},
	{"リアクティブな状態が変わったときに副作用を実行したい", []string{vue + "guide/essentials/watchers.md", vue + "tutorial/src/step-10/description.md"}},
	{"コンポーネントがマウントされた後に処理を実行するには", []string{vue + "guide/essentials/lifecycle.md", vue + "api/composition-api-lifecycle.md", vue + "tutorial/src/step-9/description.md"}},
	{"フォームの入力欄とデータを双方向にバインドしたい", []string{vue + "guide/essentials/forms.md", vue + "tutorial/src/step-5/description.md"}},
	{"スロットで親からテンプレートの一部を子に渡したい", []string{vue + "guide/components/slots.md", vue + "tutorial/src/step-14/description.md"}},
	{"深くネストした子孫コンポーネントにデータを渡すprovideとinjectの使い方", []string{vue + "guide/components/provide-inject.md", vue + "api/composition-api-dependency-injection.md"}},
	{"モーダルをbodyの直下に描画したいときはどうする？", []string{vue + "guide/built-ins/teleport.md"}},
	{"切り替えたコンポーネントの状態をキャッシュして保持したい", []string{vue + "guide/built-ins/keep-alive.md"}},
	{"ロジックを再利用するコンポーザブル関数の書き方", []string{vue + "guide/reusability/composables.md"}},
	{"VueでXSSを防ぐために気をつけることは？", []string{vue + "guide/best-practices/security.md"}},
	{"本番環境にデプロイするときの注意点", []string{vue + "guide/best-practices/production-deployment.md"}},
	{"Piniaを使った状態管理について教えて", []string{vue + "guide/scaling-up/state-management.md"}},
	{"TypeScriptでpropsの型を定義する方法", []string{vue + "guide/typescript/composition-api.md", vue + "guide/typescript/options-api.md"}},
	{"サーバーサイドレンダリングでハイドレーションの不一致が起きる原因", []string{vue + "guide/scaling-up/ssr.md", vue + "api/ssr.md"}},
	{"独自のディレクティブを作るにはどうすればいい？", []string{vue + "guide/reusability/custom-directives.md"}},
	{"アプリ全体に機能を追加するプラグインを作りたい", []string{vue + "guide/reusability/plugins.md"}},
}

// offTopicQuestions have no answer in the corpus: context layer 3 must stay
// empty for them.
var offTopicQuestions = []string{
	"今日の東京の天気はどうですか？",
	"おすすめのラーメン屋を教えて",
	"こんにちは！",
	"明日の会議を15時にリマインドして",
	"日本の首相は誰ですか",
	"猫が夜中に鳴く理由は？",
}
