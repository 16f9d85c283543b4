package cli

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/attach/attachtest"
	"playchat/backend/llm/llmtest"
)

func TestAskAttachSendsEachFileWithTheMessage(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 3000, 100))); err != nil {
		t.Fatal(err)
	}
	img, doc := filepath.Join(dir, "wide.png"), filepath.Join(dir, "data.csv")
	if err := os.WriteFile(img, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("a,b\n1,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, env, "", "ask", "--attach", img, "--attach", doc, "what is in these?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[0].Messages
	parts := msgs[len(msgs)-1].MultiContent
	if len(parts) != 3 || parts[0].Text != "what is in these?" || !strings.Contains(parts[1].Text, `name="data.csv" type="text/csv"`) ||
		parts[2].ImageURL == nil || !strings.HasPrefix(parts[2].ImageURL.URL, "data:image/png;base64,") {
		t.Fatalf("parts %+v", parts)
	}

	// A file that cannot be attached stops the command before anything is stored.
	bin := filepath.Join(dir, "a.bin")
	if err := os.WriteFile(bin, []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0}, 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, env, "", "ask", "--attach", bin, "and this?")
	if r.code == 0 || !strings.Contains(r.stderr, "a.bin") || len(srv.ChatRequests()) != 1 {
		t.Fatalf("a binary file: exit %d, %s", r.code, r.stderr)
	}
}

// A document too long for the model is refused (nothing sent) unless
// --fit asks for the part that fits.
func TestAskAttachFitSendsOnlyThePartThatFits(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	pages := make([]attachtest.Page, 40)
	for i := range pages {
		pages[i] = attachtest.Page{Latin: strings.Repeat("The budget of the year was spent on many things. ", 12)}
	}
	doc := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(doc, attachtest.PDF(pages...), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, env, "", "ask", "--attach", doc, "summarise")
	if r.code == 0 || !strings.Contains(r.stderr, "report.pdf is too long for this model") || len(srv.ChatRequests()) != 0 {
		t.Fatalf("without --fit: exit %d, %s, %d requests", r.code, r.stderr, len(srv.ChatRequests()))
	}
	// The terminal's way to the offer's answer is named.
	if !strings.Contains(r.stderr, "run again with --fit") {
		t.Fatalf("the refusal does not name --fit: %s", r.stderr)
	}
	js := runCLI(t, env, "", "ask", "--json", "--attach", doc, "summarise")
	if js.code == 0 || !strings.Contains(js.stdout, `"code":"chat.attachmentTooLong"`) || !strings.Contains(js.stdout, "--fit") {
		t.Fatalf("--json refusal: exit %d, %s", js.code, js.stdout)
	}
	r = runCLI(t, env, "", "ask", "--fit", "--attach", doc, "summarise")
	if r.code != 0 || len(srv.ChatRequests()) != 1 {
		t.Fatalf("with --fit: exit %d, %s", r.code, r.stderr)
	}
	// It says which part went.
	if !strings.Contains(r.stderr, "sent: pages 1-") || !strings.Contains(r.stderr, " of 40 of report.pdf") {
		t.Fatalf("--fit does not say which part was sent: %s", r.stderr)
	}
	msgs := srv.ChatRequests()[0].Messages
	parts := msgs[len(msgs)-1].MultiContent
	if len(parts) != 2 || !strings.Contains(parts[1].Text, `part="pages 1-`) || !strings.Contains(parts[1].Text, " of 40 only: the rest") {
		t.Fatalf("parts %+v", parts)
	}
}

// playchat ask --attach follows the image setting (MODEL_IMAGES): an image
// for a model set to "no" is refused before anything is stored or sent;
// the same image goes to a model set to "yes", whatever the table says.
func TestAskAttachFollowsTheImageSetting(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "MODEL_IMAGES=openai/fake=no,openai/gpt-3.5-turbo=yes")
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(t.TempDir(), "shot.png")
	if err := os.WriteFile(img, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, env, "", "ask", "--attach", img, "what is this?")
	if r.code == 0 || !strings.Contains(r.stderr, "openai/fake does not take images") || len(srv.ChatRequests()) != 0 {
		t.Fatalf("model set to no: exit %d, %s, %d requests", r.code, r.stderr, len(srv.ChatRequests()))
	}
	if r := runCLI(t, env, "", "sessions", "list"); r.code != 0 || strings.Contains(r.stdout, "what is this") {
		t.Errorf("sessions list: exit %d, %s%s", r.code, r.stdout, r.stderr)
	}
	// A model the vision table lists as text-only is refused the same way
	// (the provider would refuse the request), unless set to "yes".
	r = runCLI(t, env, "", "ask", "--model", "openai/gpt-4-0613", "--attach", img, "what is this?")
	if r.code == 0 || !strings.Contains(r.stderr, "openai/gpt-4-0613 does not take images") || len(srv.ChatRequests()) != 0 {
		t.Fatalf("a text-only model of the table: exit %d, %s, %d requests", r.code, r.stderr, len(srv.ChatRequests()))
	}
	r = runCLI(t, env, "", "ask", "--model", "openai/gpt-3.5-turbo", "--attach", img, "what is this?")
	if r.code != 0 || len(srv.ChatRequests()) != 1 {
		t.Fatalf("model set to yes: exit %d, %s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[0].Messages
	if parts := msgs[len(msgs)-1].MultiContent; len(parts) != 2 || parts[1].ImageURL == nil {
		t.Fatalf("parts %+v", parts)
	}
}
