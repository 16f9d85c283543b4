// Command makepdf writes a small real PDF with a text layer for the
// end-to-end tests of attachments (scripts/e2e-attach.sh): each argument
// after the output path is one page, "Latin text|日本語テキスト" (either
// side may be empty). The PDF is attachtest.PDF's, the one the Go tests of
// backend/attach read.
//
//	makepdf OUT.pdf "page one|一ページ目" "page two|二ページ目"
package main

import (
	"fmt"
	"os"
	"strings"

	"playchat/backend/attach/attachtest"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, `usage: makepdf OUT.pdf "Latin|日本語" [more pages…]`)
		os.Exit(2)
	}
	var pages []attachtest.Page
	for _, arg := range os.Args[2:] {
		latin, cjk, _ := strings.Cut(arg, "|")
		pages = append(pages, attachtest.Page{Latin: latin, CJK: cjk})
	}
	if err := os.WriteFile(os.Args[1], attachtest.PDF(pages...), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "makepdf:", err)
		os.Exit(1)
	}
}
