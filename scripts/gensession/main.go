// Command gensession writes a playchat session document (backend/session
// format) with N messages, for benchmarks and manual testing:
//
//	go run ./scripts/gensession -n 1000 > long.json && playchat sessions import long.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"playchat/backend/session"
	"playchat/backend/store"
)

func main() {
	n := flag.Int("n", 1000, "number of messages")
	title := flag.String("title", "長いセッション (benchmark)", "session title")
	flag.Parse()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	doc := session.Document{Format: session.Format, Version: session.Version, ExportedAt: t0,
		Session: session.Summary{ID: "bench", Title: *title, Model: "openai/gpt-4o-mini", CreatedAt: t0, UpdatedAt: t0}}
	for i := 0; i < *n; i++ {
		role, content := store.RoleUser, fmt.Sprintf("質問 %d: 東京の明日の天気と洗濯指数を教えてください。", i)
		if i%2 == 1 {
			role = store.RoleAssistant
			content = fmt.Sprintf("回答 %d:\n\n## 明日の天気\n\n- 晴れ時々くもり\n- 降水確率 **20%%**\n\n```go\nfmt.Println(%d)\n```\n\n%s",
				i, i, strings.Repeat("洗濯物は外に干せそうです。", 4))
		}
		doc.Messages = append(doc.Messages, session.DocMessage{ID: int64(i + 1), Role: role, Content: content,
			Status: store.StatusComplete, CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
