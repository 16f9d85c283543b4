package assistant

import (
	"context"
	"strings"

	"playchat/backend/store"
)

// Built-in assistant keys (Assistant.Builtin).
const (
	BuiltinTranslate  = "translate"
	BuiltinProofread  = "proofread"
	BuiltinCodeReview = "code_review"
)

func temp(v float64) *float64 { return &v }

// builtin is a built-in assistant in both languages. The system prompts
// are written in English and tell the model which language to answer in,
// so they work whatever the window's language; names and descriptions
// are the user's language at the first start.
type builtin struct {
	key, icon      string
	nameJA, nameEN string
	descJA, descEN string
	prompt         string
	temperature    *float64
	layersOff      []string
}

var builtins = []builtin{
	{key: BuiltinTranslate, icon: "🌐", nameJA: "翻訳", nameEN: "Translate",
		descJA: "日本語は英語に、それ以外は日本語に訳します。説明は付けません。",
		descEN: "Translates Japanese into English and anything else into Japanese, without commentary.",
		prompt: "You are a professional translator. Translate the user's whole message: Japanese text into natural English, " +
			"text in any other language into natural Japanese. Keep the meaning, tone, formatting, Markdown, code and names as they are. " +
			"Reply with the translation only — no explanations, no quotes around it. If the user asks a question about a translation " +
			"instead, answer it briefly in the language the user wrote in.",
		temperature: temp(0.2),
		layersOff:   []string{store.LayerKnowledge, store.LayerNotes, store.LayerKB, store.LayerMemory}},
	{key: BuiltinProofread, icon: "✍️", nameJA: "文章校正", nameEN: "Proofread",
		descJA: "誤字脱字・文法・表記ゆれを直し、直した箇所を短く説明します。",
		descEN: "Fixes typos, grammar and inconsistent wording, and lists what was changed.",
		prompt: "You are a careful copy editor. Proofread the user's text in the language it is written in " +
			"(for Japanese: 誤字脱字, 文法, 助詞, 表記ゆれ, 敬語の誤り). First give the corrected text in full, keeping the author's voice " +
			"and formatting; do not rewrite what is already correct. Then list each change as a short bullet: the original, the fix " +
			"and why. Write the explanations in the language of the text.",
		temperature: temp(0.2),
		layersOff:   []string{store.LayerKnowledge, store.LayerKB}},
	{key: BuiltinCodeReview, icon: "🔍", nameJA: "コードレビュー", nameEN: "Code review",
		descJA: "貼り付けたコードや差分をレビューし、重要な指摘から順に挙げます。",
		descEN: "Reviews pasted code or diffs and lists findings, most important first.",
		prompt: "You are a senior software engineer doing a code review. For the code or diff the user gives you, report findings " +
			"ordered by importance: bugs and security problems first, then correctness at the edges (errors, concurrency, resource " +
			"leaks), then design and readability. For each, quote the line or name the function, say why it matters and show a " +
			"concrete fix. Say plainly when something is good as it is; do not invent problems. Answer in the language the user writes in.",
		temperature: temp(0.3),
		layersOff:   []string{store.LayerKnowledge}},
}

// Builtins returns the built-in assistants with their names and
// descriptions in lang ("ja" or anything else for English).
func Builtins(lang string) []Draft {
	ja := strings.HasPrefix(strings.ToLower(lang), "ja")
	out := make([]Draft, len(builtins))
	for i, b := range builtins {
		d := Draft{Icon: b.icon, Name: b.nameEN, Description: b.descEN,
			Settings: store.ChatSettings{SystemPrompt: b.prompt, Temperature: b.temperature, LayersOff: b.layersOff}}
		if ja {
			d.Name, d.Description = b.nameJA, b.descJA
		}
		out[i] = d
	}
	return out
}

// SeedBuiltins creates the built-in assistants that were never created in
// this database, named in lang. It runs at every start; an edited one is
// left alone and a deleted one never comes back.
func (s *Service) SeedBuiltins(ctx context.Context, lang string) (int, error) {
	ds := Builtins(lang)
	rows := make([]store.Assistant, len(ds))
	for i, d := range ds {
		rows[i] = toRow(d)
		rows[i].BuiltinKey = builtins[i].key
	}
	return s.db.SeedAssistants(ctx, rows)
}
