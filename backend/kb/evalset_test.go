package kb

// The relevance evaluation set of issue 22: questions a user of the corpus
// (../shared/corpus) might ask, each with the section that answers it, and
// messages the knowledge base has no answer for. relevance_test.go measures
// context layer 3 on it (TestLayerRelevance, BenchmarkKBRelevance).
//
// The questions were written from the sections' subjects, phrased as a user
// would ask — in Japanese, and in English where a user would type the API
// or tool names the Japanese text also uses. Snippet is a sentence of the
// answering passage: a question is a hit when the snippet reaches the
// context, whatever else does. TestEvalSetSnippetsAreInTheirSections checks
// that every snippet is in the named document's named section.

// evalQuestion is a question with its answer in the corpus.
type evalQuestion struct {
	Q string
	// Doc is the answering document, relative to the corpus root.
	Doc string
	// Section is the last element of the answering section's heading path.
	Section string
	// Snippet is text of the answering passage (Markdown as written).
	Snippet string
}

var evalQuestions = []evalQuestion{
	// vue-docs-ja
	{"算出プロパティとメソッドの違いは？キャッシュされるのはどっち？", vue + "guide/essentials/computed.md", "算出プロパティ vs. メソッド",
		"算出プロパティは、リアクティブな依存関係が更新されたときにだけ再評価されます"},
	{"算出プロパティに値を代入できるようにするにはどうすればいい？", vue + "guide/essentials/computed.md", "書き込み可能な 算出関数",
		"getter 関数と setter 関数の両方を提供することで、それを作成することができます"},
	{"v-ifとv-showはどう使い分ければいいですか", vue + "guide/essentials/conditional.md", "v-show",
		"`v-if` はより高い切り替えコストを持っているのに対して"},
	{"v-forでリストを描画するときkeyを指定するのはなぜ？", vue + "guide/essentials/list.md", "key による状態管理",
		"デフォルトでは「その場での修繕」（in-place patch）という戦略が用いられます"},
	{"ネストしたオブジェクトの中の変更もウォッチャーで検知したい", vue + "guide/essentials/watchers.md", "ディープ・ウォッチャー",
		"ネストしたすべての変更でコールバックが実行されるようにする場合、ディープ・ウォッチャーを使用する必要があります"},
	{"ウォッチャーのコールバックを作成時にすぐ実行させるには？", vue + "guide/essentials/watchers.md", "即時ウォッチャー",
		"`immediate: true` オプションを渡すと、ウォッチャーのコールバックを強制的に即時実行させられます"},
	{"子コンポーネントから親にイベントを発行するには？", vue + "guide/components/events.md", "イベントの発行と購読",
		"組み込みの `$emit` メソッドを使用して"},
	{"子コンポーネントの中でpropsを書き換えてはいけないのはなぜ？", vue + "guide/components/props.md", "一方向のデータフロー",
		"子コンポーネント内で props の変更を試みては**いけません**"},
	{"複数のスロットに名前をつけて使い分けたい", vue + "guide/components/slots.md", "名前付きスロット",
		"1 つのコンポーネント内に複数のスロットアウトレットがあると便利なときがあります"},
	{"スロットのコンテンツから子コンポーネントのデータを使いたい", vue + "guide/components/slots.md", "スコープ付きスロット",
		"スロットのコンテンツが親のスコープと子のスコープの両方から来たデータを利用できると便利な場合があります"},
	{"深い階層のコンポーネントにpropsのバケツリレーをせずにデータを渡すには", vue + "guide/components/provide-inject.md", "Provide / Inject",
		"親コンポーネントのチェーン全体に同じ props を渡さなければなりません"},
	{"モーダルをbodyタグの直下に描画したいときはどうする？", vue + "guide/built-ins/teleport.md", "基本的な使い方",
		"`<Teleport>` の `to` ターゲットには、CSS セレクター文字列か、存在する DOM ノードが必要です"},
	{"切り替えたコンポーネントの状態を保持したままにしたい", vue + "guide/built-ins/keep-alive.md", "基本的な使い方",
		"これで、コンポーネントを切り替えても状態が永続化されます"},
	{"KeepAliveでキャッシュするインスタンスの数に上限をつけたい", vue + "guide/built-ins/keep-alive.md", "キャッシュインスタンスの最大数",
		"キャッシュできるコンポーネントインスタンスの最大数を制限することができます"},
	{"v-htmlでユーザーが入力したHTMLを表示しても安全ですか", vue + "guide/best-practices/security.md", "HTML の注入",
		"Vue は自動的に HTML コンテンツをエスケープするので"},
	{"カスタムディレクティブにはどんなフックがありますか", vue + "guide/reusability/custom-directives.md", "ディレクティブフック",
		"ディレクティブ定義オブジェクトは、いくつかのフック関数（すべて任意です）を提供することができます"},
	{"コンポーザブル関数の名前の付け方に決まりはある？", vue + "guide/reusability/composables.md", "慣例とベストプラクティス",
		"コンポーザブル関数には \"use\" で始まるキャメルケースの名前をつけるのが慣例です"},
	{"状態が変わった後にDOMの更新が終わるのを待つには", vue + "guide/essentials/reactivity-fundamentals.md", "DOM 更新のタイミング",
		"DOM の更新は同期的に適用されないことに注意する必要があります"},
	{"Enterキーが押されたときだけイベントを処理したい", vue + "guide/essentials/event-handling.md", "キー修飾子",
		"Vue は `v-on` あるいは `@` にキー修飾子を加えることができます"},
	{"フォームの入力値を自動で数値に変換したい", vue + "guide/essentials/forms.md", "修飾子",
		"ユーザー入力を自動で数値として型変換したい場合"},
	{"コンポーネントがマウントされた後に処理を実行するには", vue + "guide/essentials/lifecycle.md", "ライフサイクルフックの登録",
		"フックは、コンポーネントが最初のレンダリングを終了し DOM ノードを生成した後に、コードを実行するのに使用することができます"},
	{"必要になったときだけコンポーネントをサーバーから読み込みたい", vue + "guide/components/async.md", "基本的な使い方",
		"必要なときにのみサーバーからコンポーネントを読み込む必要があるかもしれません"},
	{"フォールスルー属性を自動で継承させたくない", vue + "guide/components/attrs.md", "属性の継承の無効化",
		"コンポーネントのオプションで `inheritAttrs: false` を設定できます"},
	// rust-book-ja
	{"Rustの所有権のルールってどういうものですか？", rust + "ch04-01-what-is-ownership.md", "所有権規則",
		"いかなる時も所有者は一つである。"},
	{"可変な参照と不変な参照は同時に持てますか", rust + "ch04-02-references-and-borrowing.md", "参照の規則",
		"任意のタイミングで、一つの可変参照*か*不変な参照いくつでもの*どちらか*を行える。"},
	{"文字列スライスとは何ですか", rust + "ch04-03-slices.md", "文字列スライス",
		"*文字列スライス*とは、`String`の一部への参照で"},
	{"シャドーイングとmutな変数の違いは何？", rust + "ch03-01-variables-and-mutability.md", "シャドーイング",
		"シャドーイングは、変数を`mut`にするのとは違います。"},
	{"ハッシュマップでキーに値が無いときだけ値を挿入したい", rust + "ch08-03-hash-maps.md", "ハッシュマップを更新する",
		"ハッシュマップには、これを行う`entry`と呼ばれる特別なAPIがあり"},
	{"?演算子でエラーを呼び出し元に委譲するには", rust + "ch09-02-recoverable-errors-with-result.md", "エラーを委譲する",
		"Rustにはこれをしやすくする`?`演算子が用意されています。"},
	{"テストを並列ではなく順番に実行したい", rust + "ch11-02-running-tests.md", "テストを並行または連続して実行する",
		"`--test-threads`フラグと使用したいスレッド数をテストバイナリに送ることができます。"},
	{"一つの値に複数の所有者を持たせるにはRc<T>をどう使う？", rust + "ch15-04-rc.md", "Rc<T>は、参照カウント方式のスマートポインタ",
		"複数の所有権を可能にするため、Rustには`Rc<T>`という型があり"},
	{"スレッド間でメッセージを送るチャンネルの使い方", rust + "ch16-02-message-passing.md", "メッセージ受け渡しを使ってスレッド間でデータを転送する",
		"プログラミングにおけるチャンネルは、2分割できます: 転送機と受信機です。"},
	{"Mutexで複数のスレッドからデータを共有するには", rust + "ch16-03-shared-state.md", "ミューテックスを使用して一度に1つのスレッドからデータにアクセスすることを許可する",
		"ミューテックスは、どんな時も1つのスレッドにしかなんらかのデータへのアクセスを許可しないというように"},
	{"ライフタイム注釈はどう書けばいいの？", rust + "ch10-03-lifetime-syntax.md", "ライフタイム注釈記法",
		"ライフタイム注釈は、いかなる参照の生存期間も変えることはありません。"},
	{"unsafeブロックの中では何ができるようになりますか", rust + "ch19-01-unsafe-rust.md", "unsafeの強大な力(superpower)",
		"* 生ポインタを参照外しすること"},
	{"Cargoで新しいプロジェクトを作るには", rust + "ch01-03-hello-cargo.md", "Cargoでプロジェクトを作成する",
		"最初のコマンドは*hello_cargo*という名の新しいディレクトリを作成します。"},
	{"リリースビルドの最適化レベルを変えたい", rust + "ch14-01-release-profiles.md", "リリースプロファイルでビルドをカスタマイズする",
		"`dev`と`release`プロファイルの`opt-level`設定のデフォルト値です"},
	// English, with the names the Japanese text uses.
	{"What is the difference between v-if and v-show?", vue + "guide/essentials/conditional.md", "v-show",
		"`v-if` はより高い切り替えコストを持っているのに対して"},
	{"How do I limit how many instances KeepAlive caches with max?", vue + "guide/built-ins/keep-alive.md", "キャッシュインスタンスの最大数",
		"キャッシュできるコンポーネントインスタンスの最大数を制限することができます"},
	{"When should I use watchEffect instead of watch?", vue + "guide/essentials/watchers.md", "watch 対 watchEffect",
		"両者の主な違いはリアクティブの依存先の監視方法にあります"},
	{"How do I wait for the DOM update with nextTick?", vue + "guide/essentials/reactivity-fundamentals.md", "DOM 更新のタイミング",
		"DOM の更新は同期的に適用されないことに注意する必要があります"},
	{"How do I turn off attribute inheritance with inheritAttrs?", vue + "guide/components/attrs.md", "属性の継承の無効化",
		"コンポーネントのオプションで `inheritAttrs: false` を設定できます"},
	{"How do I load a component lazily with defineAsyncComponent?", vue + "guide/components/async.md", "基本的な使い方",
		"必要なときにのみサーバーからコンポーネントを読み込む必要があるかもしれません"},
	{"computed property vs method: which one is cached?", vue + "guide/essentials/computed.md", "算出プロパティ vs. メソッド",
		"算出プロパティは、リアクティブな依存関係が更新されたときにだけ再評価されます"},
	{"How can I run cargo test with --test-threads=1?", rust + "ch11-02-running-tests.md", "テストを並行または連続して実行する",
		"`--test-threads`フラグと使用したいスレッド数をテストバイナリに送ることができます。"},
	{"How do I share a value between threads with Mutex and Arc?", rust + "ch16-03-shared-state.md", "ミューテックスを使用して一度に1つのスレッドからデータにアクセスすることを許可する",
		"`Arc<T>`は`Rc<T>`のような並行な状況で安全に使用できる型*です*。"},
	{"What does reference counting with Rc<T> mean?", rust + "ch15-04-rc.md", "Rc<T>は、参照カウント方式のスマートポインタ",
		"複数の所有権を可能にするため、Rustには`Rc<T>`という型があり"},
	{"How do I insert a value only if the key is missing with entry and or_insert?", rust + "ch08-03-hash-maps.md", "ハッシュマップを更新する",
		"ハッシュマップには、これを行う`entry`と呼ばれる特別なAPIがあり"},
	{"What are Rust's ownership rules?", rust + "ch04-01-what-is-ownership.md", "所有権規則",
		"いかなる時も所有者は一つである。"},
}

// evalNoAnswer are messages the corpus has no answer for: small talk,
// greetings, arithmetic, weather, errands, in both languages, and the
// "turn N: my favourite number is M" messages of issue 22. Layer 3 must add
// nothing for them.
var evalNoAnswer = []string{
	"今日の東京の天気はどうですか？",
	"明日は雨が降るかな",
	"おすすめのラーメン屋を教えて",
	"こんにちは！",
	"おはようございます、今日もよろしく",
	"ありがとう、助かりました",
	"明日の会議を15時にリマインドして",
	"日本の首相は誰ですか",
	"猫が夜中に鳴く理由は？",
	"3たす5はいくつ？",
	"12かける7は？",
	"週末は映画を見に行きたいな",
	"最近よく眠れないんです",
	"私の好きな数字は7です",
	"今日の数学のテストは難しかった",
	"誕生日プレゼントに何を買えばいい？",
	"turn 1: my favourite number is 3",
	"turn 7: my favourite number is 19",
	"turn 12: my favourite number is 7",
	"turn 26: my favourite number is 42",
	"hello!",
	"good morning, how are you?",
	"thanks a lot, that helped",
	"what's the weather like in Tokyo today?",
	"what is 17 times 3?",
	"2+2=?",
	"I had ramen for lunch",
	"remind me to call mom tomorrow",
	"my cat keeps meowing at night",
	"who won the world cup in 2022?",
	"I need to return this book to the library",
	"what's your name?",
}
