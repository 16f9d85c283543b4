package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/kb"
	"playchat/backend/llm/llmtest"
)

func kbEnv(t *testing.T) (env []string, kbDir string) {
	t.Helper()
	kbDir = filepath.Join(t.TempDir(), "kb")
	return []string{"PLAYCHAT_DATA_DIR=" + t.TempDir(), "KNOWLEDGE_BASE_DIR=" + kbDir}, kbDir
}

func put(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestKBSearchRanksJapaneseDocumentsWithoutEmbeddings(t *testing.T) {
	env, dir := kbEnv(t)
	put(t, filepath.Join(dir, "rust", "ownership.md"), "# 所有権とは？\n\nRustの中心的な機能は所有権です。所有権のルールを見ていきましょう。\n")
	put(t, filepath.Join(dir, "vue", "props.md"), "# props\n\n親コンポーネントから子コンポーネントへデータを渡すには props を宣言します。\n")

	r := runCLI(t, env, "", "kb", "search", "所有権のルールは？")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	first := strings.SplitN(r.stdout, "\n", 3)
	if !strings.HasPrefix(first[0], "1. rust/ownership.md  score ") || !strings.Contains(first[1], "«所有権»") {
		t.Errorf("search output:\n%s", r.stdout)
	}

	r = runCLI(t, env, "", "kb", "search", "--json", "--limit", "1", "子コンポーネントにデータを渡す")
	var hits []kb.Hit
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %v: %s %s", r.code, err, r.stdout, r.stderr)
	}
	if len(hits) != 1 || hits[0].Rank != 1 || hits[0].Path != "vue/props.md" || hits[0].Score <= 0 || !strings.Contains(hits[0].Excerpt, "«") {
		t.Errorf("hits = %+v", hits)
	}
	// Seeding happens only when the folder is created: this one existed.
	if _, err := os.Stat(filepath.Join(dir, "playchat-guide.md")); err == nil {
		t.Error("an existing folder was seeded")
	}
}

func TestKBCommandsOnANewFolderSeedStatusReindexImport(t *testing.T) {
	env, dir := kbEnv(t)
	r := runCLI(t, env, "", "kb", "status")
	if r.code != 0 || !strings.Contains(r.stdout, "folder:") || !strings.Contains(r.stdout, "embeddings: off") {
		t.Fatalf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "playchat-guide.md")); err != nil {
		t.Fatalf("a new folder is not seeded with the guide: %v", err)
	}
	r = runCLI(t, env, "", "kb", "reindex")
	if r.code != 0 || !strings.Contains(r.stdout, "reindexed") {
		t.Fatalf("reindex: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "kb", "status", "--json")
	var st kb.Status
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Indexed != 1 || st.Pending != 0 {
		t.Errorf("status --json = %+v (%v)", st, err)
	}

	src := filepath.Join(t.TempDir(), "notes")
	put(t, filepath.Join(src, "a.md"), "# 議事録\n\n来週の予定。\n")
	r = runCLI(t, env, "", "kb", "import", "--source", src, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would copy 1 new") {
		t.Fatalf("import --dry-run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "kb", "import", "--source", src)
	if r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes", "a.md")); err != nil {
		t.Fatalf("import did not copy into <kb>/notes: %v", err)
	}
	r = runCLI(t, env, "", "kb", "search", "--json", "議事録")
	var hits []kb.Hit
	json.Unmarshal([]byte(r.stdout), &hits)
	if len(hits) == 0 || hits[0].Path != "notes/a.md" {
		t.Errorf("imported file not found: %s %s", r.stdout, r.stderr)
	}
	os.Remove(filepath.Join(src, "a.md"))
	r = runCLI(t, env, "", "kb", "import", "--source", src, "--mirror")
	if r.code != 0 || !strings.Contains(r.stdout, "removed 1 file gone from the source") {
		t.Errorf("import --mirror: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestKBSearchWithAnEmbeddingModel(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithEmbeddingDim(64))
	env, dir := kbEnv(t)
	env = append(env, "OPENAI_BASE_URL="+srv.URL, "EMBEDDING_MODEL=openai/fake-embed")
	put(t, filepath.Join(dir, "wifi.md"), "# 家のネットワーク\n\nWi-Fiのパスワードはルーターの裏。\n")
	r := runCLI(t, env, "", "kb", "search", "--json", "パスワード")
	var hits []kb.Hit
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || len(hits) == 0 || hits[0].Path != "wifi.md" {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if srv.RequestCount(llmtest.PathEmbeddings) < 2 { // the section, then the query
		t.Errorf("embeddings requested %d times", srv.RequestCount(llmtest.PathEmbeddings))
	}
	r = runCLI(t, env, "", "kb", "status")
	if !strings.Contains(r.stdout, "embeddings: openai/fake-embed, 1 documents embedded, 0 sections pending") {
		t.Errorf("status:\n%s", r.stdout)
	}
}

func TestKBUsageErrors(t *testing.T) {
	env, _ := kbEnv(t)
	for _, args := range [][]string{
		{"kb"}, {"kb", "nope"}, {"kb", "search"}, {"kb", "search", "--limit", "0", "x"},
		{"kb", "import"}, {"kb", "import", "--source", "/tmp", "--dest", "../out"},
	} {
		if r := runCLI(t, env, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, r.code, r.stderr)
		}
	}
	if !IsCommand([]string{"kb", "status"}) {
		t.Error("kb is not a CLI command")
	}
}
