package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/attach/attachtest"
	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
)

// longPDF is a real PDF of n pages, each about 150 tokens of numbered
// sentences, so that pages 1..k and k+1 can be told apart in a request.
func longPDF(t *testing.T, n int) attach.Prepared {
	t.Helper()
	pages := make([]attachtest.Page, n)
	for i := range pages {
		var b strings.Builder
		for s := 0; s < 12; s++ {
			fmt.Fprintf(&b, "Section %d sentence %d tells how the budget of the year was spent. ", i+1, s+1)
		}
		pages[i] = attachtest.Page{Latin: strings.TrimSpace(b.String())}
	}
	return prepared(t, "report.pdf", attachtest.PDF(pages...))
}

// docPart returns the attachment block among parts ("" if none).
func docPart(parts []openai.ChatMessagePart) string {
	for _, p := range parts {
		if strings.HasPrefix(p.Text, attach.BlockPrefix) {
			return p.Text
		}
	}
	return ""
}

// A PDF too long for the model is never cut silently: the turn is refused
// with the offer (which pages fit), nothing is stored and the model gets
// no request. Sent again with FitAttachments, the request holds exactly
// pages 1..N — the N the offer named — and says so; the stored message
// keeps that part, so the next turn's history sends the same.
func TestAPDFThatDoesNotFitYieldsTheOfferNeverACutRequest(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	doc := longPDF(t, 40)
	req := chat.TurnRequest{Text: "What does the report say about the budget?", Attachments: []attach.Prepared{doc}}

	_, err := c.Chat.Start(ctx, req, &recorder{})
	in := apperr.InfoOf(err)
	if in.Code != apperr.ChatAttachmentTooLong {
		t.Fatalf("Start = %v, want %s", err, apperr.ChatAttachmentTooLong)
	}
	fit, _ := in.Params["fitPages"].(int)
	if in.Params["name"] != "report.pdf" || in.Params["pages"] != 40 || fit < 2 || fit >= 40 || in.Params["docs"] != 1 {
		t.Fatalf("offer params %+v", in.Params)
	}
	t.Logf("pages 1-%d of 40 fit: %s", fit, in.Message)
	if n := srv.RequestCount(llmtest.PathChat); n != 0 {
		t.Fatalf("a document that does not fit made %d requests", n)
	}
	if ss, _ := c.DB.ListSessions(ctx); len(ss) != 0 {
		t.Fatalf("a refused message stored %d sessions", len(ss))
	}

	req.FitAttachments = true
	tr, err := c.Chat.Start(ctx, req, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	block := docPart(userParts(t, srv))
	part := fmt.Sprintf("pages 1-%d of 40", fit)
	if !strings.Contains(block, `part="`+part+`"`) || !strings.Contains(block, "[this is "+part+" only:") {
		t.Fatalf("the block does not say which part it is:\n%.300s", block)
	}
	for p := 1; p <= 40; p++ {
		has := strings.Contains(block, fmt.Sprintf("[page %d]\nSection %d sentence 1 ", p, p))
		if has != (p <= fit) {
			t.Fatalf("page %d sent = %v with pages 1-%d fitting", p, has, fit)
		}
	}
	if !strings.Contains(block, fmt.Sprintf("Section %d sentence 12 ", fit)) {
		t.Fatalf("page %d was cut inside", fit)
	}
	ms, _ := c.DB.SessionMessages(ctx, tr.SessionID)
	if err := c.DB.LoadFiles(ctx, ms); err != nil {
		t.Fatal(err)
	}
	if f := ms[0].Files; len(f) != 1 || f[0].Pages != 40 || f[0].SentPages != fit {
		t.Fatalf("stored file %+v", f)
	}

	// The next turn: the history carries the same part (or leaves the
	// message out), never the whole document.
	if res, _, _ := turn(t, c, tr.SessionID, "and the summary?"); res.Err != nil {
		t.Fatal(res.Err)
	}
	last := srv.ChatRequests()[len(srv.ChatRequests())-1]
	for _, m := range last.Messages {
		for _, p := range m.MultiContent {
			if strings.Contains(p.Text, fmt.Sprintf("[page %d]", fit+1)) {
				t.Fatal("the next turn sent a page the user chose not to send")
			}
		}
	}
}

// A text document is cut at a character count the offer names, and the
// block says "characters 1-N of M".
func TestATextDocumentThatDoesNotFitIsOfferedByCharacters(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	var b strings.Builder
	for i := 1; b.Len() < 40000; i++ {
		fmt.Fprintf(&b, "line %d of the log: everything was fine\n", i)
	}
	doc := prepared(t, "server.log", []byte(b.String()))
	req := chat.TurnRequest{Text: "any errors?", Attachments: []attach.Prepared{doc}}
	_, err := c.Chat.Start(ctx, req, &recorder{})
	in := apperr.InfoOf(err)
	fit, _ := in.Params["fitChars"].(int)
	if in.Code != apperr.ChatAttachmentTooLong || in.Params["pages"] != 0 || in.Params["chars"] != len(doc.Text) || fit <= 0 || fit >= len(doc.Text) {
		t.Fatalf("Start = %v %+v", err, in.Params)
	}
	if n := srv.RequestCount(llmtest.PathChat); n != 0 {
		t.Fatalf("%d requests", n)
	}
	req.FitAttachments = true
	tr, err := c.Chat.Start(ctx, req, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	want := attach.PartBlock("server.log", "text/plain", doc.Text[:fit], attach.CharsPart(fit, len(doc.Text)))
	if got := docPart(userParts(t, srv)); got != want {
		t.Fatalf("block:\n%.200s\nwant:\n%.200s", got, want)
	}
}

// What fits is sent whole, with or without FitAttachments; a message whose
// own text is too long is refused as before, whatever it carries.
func TestFitAttachmentsChangesNothingThatFitsAndATooLongTextIsNoOffer(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	doc := longPDF(t, 3)
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "short", Attachments: []attach.Prepared{doc}, FitAttachments: true}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	if got := docPart(userParts(t, srv)); got != attach.Block(doc.Name, doc.MIME, doc.Text) {
		t.Fatalf("a document that fits was changed:\n%.200s", got)
	}
	huge := strings.Repeat("長い文章です。", 4000)
	_, err = c.Chat.Start(ctx, chat.TurnRequest{Text: huge, Attachments: []attach.Prepared{longPDF(t, 40)}, FitAttachments: true}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatTooLongForModel {
		t.Fatalf("a too long text with a document: %v", err)
	}
}

// Two long documents where the second cannot send even its first page
// once the first takes its part: the offer has no part to send (fitPages
// 0), and FitAttachments is refused too, never sending one document cut
// and the other left out.
func TestNoPartIsOfferedWhenADocumentCannotSendItsBeginning(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	second := longPDF(t, 40)
	second.Name = "annex.pdf"
	req := chat.TurnRequest{Text: "compare", Attachments: []attach.Prepared{longPDF(t, 40), second}}
	for _, fit := range []bool{false, true} {
		req.FitAttachments = fit
		_, err := c.Chat.Start(ctx, req, &recorder{})
		in := apperr.InfoOf(err)
		if in.Code != apperr.ChatAttachmentTooLong || in.Params["name"] != "report.pdf" || in.Params["fitPages"] != 0 || in.Params["docs"] != 2 {
			t.Fatalf("fit=%v: %v %+v", fit, err, in.Params)
		}
	}
	if n := srv.RequestCount(llmtest.PathChat); n != 0 {
		t.Fatalf("%d requests", n)
	}
}

// A long document and a short one (found by a new-user try: the offer
// said neither fits "even in part"): the short one goes whole, whatever
// its place in the message, and the long one offers the pages that fit
// beside it; sent with FitAttachments, both are in the request.
func TestAShortDocumentGoesWholeBesideTheLongOnesPart(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	short := prepared(t, "one-line.json", []byte(`{"k":"`+strings.Repeat("v", 900)+`"}`))
	req := chat.TurnRequest{Text: "compare", Attachments: []attach.Prepared{longPDF(t, 40), short}}
	_, err := c.Chat.Start(ctx, req, &recorder{})
	in := apperr.InfoOf(err)
	fit, _ := in.Params["fitPages"].(int)
	if in.Code != apperr.ChatAttachmentTooLong || in.Params["name"] != "report.pdf" || fit < 2 || in.Params["docs"] != 2 {
		t.Fatalf("Start = %v %+v, want pages of report.pdf offered", err, in.Params)
	}
	req.FitAttachments = true
	tr, err := c.Chat.Start(ctx, req, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	var blocks []string
	for _, p := range userParts(t, srv) {
		if strings.HasPrefix(p.Text, attach.BlockPrefix) {
			blocks = append(blocks, p.Text)
		}
	}
	if len(blocks) != 2 || !strings.Contains(blocks[0], fmt.Sprintf(`part="pages 1-%d of 40"`, fit)) || blocks[1] != attach.Block(short.Name, short.MIME, short.Text) {
		t.Fatalf("blocks sent: %d\n%.200s", len(blocks), strings.Join(blocks, "\n---\n"))
	}
}

// The part of a document that fits leaves room for the conversation (issue
// 25, found by a new-user try): in a chat with a question and its reply,
// "send pages 1–N" of a long PDF filled the whole request, so the earlier
// question was left out — its reply went first, answering nothing — and so
// was the current time. Now the offer's part leaves room for the newest
// messages and the smallest layers: the request holds the earlier question
// and reply, and the clock.
func TestThePartThatFitsLeavesRoomForTheConversation(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	first := strings.Repeat("An earlier question about the harbour and its ships. ", 20)
	res, _, sid := turn(t, c, "", first)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	req := chat.TurnRequest{SessionID: sid, Text: "What does the report say about the budget?", Attachments: []attach.Prepared{longPDF(t, 40)}}
	_, err := c.Chat.Start(ctx, req, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatAttachmentTooLong {
		t.Fatalf("Start = %v, want the offer", err)
	}
	req.FitAttachments = true
	tr, err := c.Chat.Start(ctx, req, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	r := tr.Wait()
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if r.Context.History.LeftOut != 0 || r.Context.History.Sent != 2 {
		t.Fatalf("history sent %d, left out %d: the part pushed the conversation out", r.Context.History.Sent, r.Context.History.LeftOut)
	}
	msgs := srv.ChatRequests()[len(srv.ChatRequests())-1].Messages
	var roles []string
	clock := false
	for _, m := range msgs {
		roles = append(roles, m.Role)
		clock = clock || (m.Role == "system" && strings.Contains(m.Content, "# Current time"))
	}
	if got := strings.Join(roles[len(roles)-3:], ","); got != "user,assistant,user" || !strings.Contains(msgs[len(msgs)-3].Content, "harbour") {
		t.Fatalf("the request ends %s, want the earlier question, its reply and the new one", got)
	}
	if !clock {
		t.Fatal("the current time was left out of the request")
	}
}
