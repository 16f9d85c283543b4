package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

// streamingReply stores a session, a question and a reply with status
// streaming and the given text in db; it returns the reply.
func streamingReply(t *testing.T, db *DB, text string) Message {
	t.Helper()
	ctx := context.Background()
	s, err := db.CreateSession(ctx, "", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	q := Message{SessionID: s.ID, Role: RoleUser, Content: "question"}
	if err := db.InsertMessage(ctx, &q); err != nil {
		t.Fatal(err)
	}
	r := Message{SessionID: s.ID, Role: RoleAssistant, Content: text, Status: StatusStreaming}
	if err := db.InsertMessage(ctx, &r); err != nil {
		t.Fatal(err)
	}
	if r.StreamOwner != db.Owner() || r.StreamOwner == "" {
		t.Fatalf("a streaming reply carries owner %q, want %q", r.StreamOwner, db.Owner())
	}
	return r
}

// wantInterrupted fails t unless message id was marked interrupted with status.
func wantInterrupted(t *testing.T, db *DB, id int64, status, content string) {
	t.Helper()
	m, err := db.GetMessage(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	in := apperr.ParseStored(m.ErrorInfo)
	if m.Status != status || m.Content != content || in.Code != apperr.ChatReplyInterrupted || m.StreamOwner != "" ||
		m.Error == "" {
		t.Fatalf("reply after the restart: status %q content %q error %q info %q owner %q; want %s with %q, code %s",
			m.Status, m.Content, m.Error, m.ErrorInfo, m.StreamOwner, status, content, apperr.ChatReplyInterrupted)
	}
}

// An unclean end leaves a reply streaming whose owner is gone (its lock
// file too, as after a power cut on a tmpfs): the next start marks it.
func TestAStartMarksRepliesLeftStreamingByAnEndedProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	withText := streamingReply(t, db, "half a rep")
	empty := streamingReply(t, db, "")
	// Leave the rows as a killed process leaves them: still streaming, the
	// owner gone.
	if _, err := db.Bun().ExecContext(ctx, `UPDATE messages SET stream_owner = ? WHERE status = 'streaming'`,
		"8f14e45f-ceea-467f-a0e6-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wantInterrupted(t, db, withText.ID, StatusPartial, "half a rep")
	wantInterrupted(t, db, empty.ID, StatusError, "")
}

// A second process on the same database (here a second open, which is its
// own owner) never marks a reply the first is still writing; once the
// first has ended, it does.
func TestALiveStreamIsNotMarkedByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	writer, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r := streamingReply(t, writer, "still coming")

	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if n, err := other.RecoverInterrupted(ctx); err != nil || n != 0 {
		t.Fatalf("marked %d (%v) while the writer lives", n, err)
	}
	m, err := other.GetMessage(ctx, r.ID)
	if err != nil || m.Status != StatusStreaming {
		t.Fatalf("the live reply became %q (%v)", m.Status, err)
	}
	// The writer's updates still land.
	r.Content = "still coming, more"
	if err := writer.UpdateStreaming(ctx, &r); err != nil {
		t.Fatal(err)
	}
	writer.Close() // ends without finishing the reply

	if n, err := other.RecoverInterrupted(ctx); err != nil || n != 1 {
		t.Fatalf("after the writer ended: marked %d, %v; want 1", n, err)
	}
	wantInterrupted(t, other, r.ID, StatusPartial, "still coming, more")
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), OwnerDir, writer.Owner()+".lock")); !os.IsNotExist(err) {
		t.Errorf("the ended owner's lock file is still there: %v", err)
	}
}

// The real thing: a process writing a reply is killed with SIGKILL. While
// it lives its reply is left alone; after the kill the next sweep marks it.
func TestAReplyOfAKilledProcessIsMarkedInterrupted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	cmd := helper("stream", path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	line, _ := bufio.NewReader(out).ReadString('\n')
	idText, ok := strings.CutPrefix(strings.TrimSpace(line), "streaming ")
	id, perr := strconv.ParseInt(idText, 10, 64)
	if !ok || perr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}

	db, err := Open(ctx, path) // its start-up sweep sees a live owner
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if m, err := db.GetMessage(ctx, id); err != nil || m.Status != StatusStreaming {
		t.Fatalf("the live reply became %q (%v)", m.Status, err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no clean-up runs
		t.Fatal(err)
	}
	cmd.Wait()
	if n, err := db.RecoverInterrupted(ctx); err != nil || n != 1 {
		t.Fatalf("after the kill: marked %d, %v; want 1", n, err)
	}
	wantInterrupted(t, db, id, StatusPartial, "half a rep")
}

func TestAFinishedReplyIsNoLongerStreaming(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r := streamingReply(t, db, "par")
	r.Content = "partial text"
	if err := db.UpdateStreaming(ctx, &r); err != nil {
		t.Fatal(err)
	}
	if m, _ := db.GetMessage(ctx, r.ID); m.Content != "partial text" || m.Status != StatusStreaming {
		t.Fatalf("after an update: %q %q", m.Status, m.Content)
	}
	r.Content, r.Status, r.ContextUsage = "the whole reply", StatusComplete, `{"model":"m"}`
	if err := db.FinishReply(ctx, &r); err != nil {
		t.Fatal(err)
	}
	late := r
	late.Content = "a late update"
	if err := db.UpdateStreaming(ctx, &late); err != nil {
		t.Fatal(err)
	}
	m, err := db.GetMessage(ctx, r.ID)
	if err != nil || m.Status != StatusComplete || m.Content != "the whole reply" || m.StreamOwner != "" {
		t.Fatalf("finished reply: %+v, %v", m, err)
	}
	if rep, ok, err := db.GetContextUsage(ctx, r.ID); err != nil || !ok || rep != `{"model":"m"}` {
		t.Errorf("context report %q, %v, %v", rep, ok, err)
	}
	if n, err := db.RecoverInterrupted(ctx); err != nil || n != 0 {
		t.Errorf("a finished reply was marked: %d, %v", n, err)
	}
}

// An owner id read from the database is never used as a path.
func TestAnOwnerIDThatIsNotOneIsNotAPath(t *testing.T) {
	db := openTest(t)
	for _, id := range []string{"../../etc/passwd", "", "x/y", fmt.Sprintf("%s/..", db.Owner())} {
		if p := db.ownerFile(id); p != "" {
			t.Errorf("owner %q maps to %q", id, p)
		}
	}
}
