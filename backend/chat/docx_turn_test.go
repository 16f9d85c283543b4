package chat_test

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"playchat/backend/attach"
	"playchat/backend/chat"
)

// A Word document attached to a message goes to the model as its text in
// an attachment block (paragraphs as lines, a table row's cells by tabs),
// Japanese included, and is stored with the message (issue 25).
func TestADocxAttachmentGoesAsItsTextAndIsStored(t *testing.T) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, _ := z.Create("word/document.xml")
	_, _ = w.Write([]byte(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
		`<w:p><w:r><w:t>議事録：灯台の点検</w:t></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>日付</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>三月</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`</w:body></w:document>`))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	doc := prepared(t, "minutes.docx", buf.Bytes())
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "点検はいつ？", Attachments: []attach.Prepared{doc}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	block := docPart(userParts(t, srv))
	if !strings.Contains(block, `name="minutes.docx"`) || !strings.Contains(block, "議事録：灯台の点検") || !strings.Contains(block, "日付\t三月") {
		t.Fatalf("the request's block:\n%s", block)
	}
	ms, _ := c.DB.SessionMessages(ctx, tr.SessionID)
	files, _ := c.DB.FilesOf(ctx, []int64{ms[0].ID})
	if f := files[ms[0].ID]; len(f) != 1 || f[0].Kind != doc.Kind || f[0].SHA256 != doc.SHA256 {
		t.Fatalf("stored files %+v", f)
	}
}
