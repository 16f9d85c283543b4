package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

// Issue 21: a damaged database, or one a newer playchat wrote, is refused
// by `playchat ask`: exit 1, the message names the data folder and the way
// back, --json ends with a coded error event, and the file is unchanged.
func TestAskRefusesADamagedOrNewerDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		harm func(testing.TB, string)
		code apperr.Code
		want string
	}{
		{"damaged", storetest.CorruptMiddle, apperr.StoreDamaged, "restore the data folder"},
		{"newer", storetest.MarkNewer, apperr.StoreNewerSchema, "newer version of playchat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			env := testEnv(t, srv)
			dir := strings.TrimPrefix(env[0], "PLAYCHAT_DATA_DIR=")
			path := filepath.Join(dir, store.FileName)
			storetest.Fill(t, path, 400)
			tc.harm(t, path)
			before := storetest.Hash(t, path)

			r := runCLI(t, env, "", "ask", "hello")
			if r.code != 1 || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, dir) {
				t.Errorf("plain ask: exit %d, stderr %q", r.code, r.stderr)
			}
			r = runCLI(t, env, "", "ask", "--json", "hello")
			lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
			var last map[string]any
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
				t.Fatalf("--json: %q: %v", r.stdout, err)
			}
			if r.code != 1 || last["type"] != "error" || last["code"] != string(tc.code) {
				t.Errorf("--json: exit %d, last line %v", r.code, last)
			}
			if len(srv.ChatRequests()) != 0 {
				t.Error("a model request was made")
			}
			if storetest.Hash(t, path) != before {
				t.Error("the database file changed")
			}
		})
	}
}
