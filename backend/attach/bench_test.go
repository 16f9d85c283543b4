package attach

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPreparePDF100Pages measures Prepare on a 100-page PDF of
// Latin and Japanese text (attachtest.PDF; about 1,500 characters a page):
// what adding such a file to the message box costs before its chip shows
// (issue 25). It reports the file's size and the characters extracted.
func BenchmarkPreparePDF100Pages(b *testing.B) {
	pages := make([]pdfPage, 100)
	for i := range pages {
		pages[i] = pdfPage{
			Latin: fmt.Sprintf("Chapter %d. ", i+1) + strings.Repeat("The quick brown fox jumps over the lazy dog. ", 12),
			CJK:   strings.Repeat("吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", 15),
		}
	}
	data := makePDF(pages)
	var chars int
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := Prepare("book.pdf", data)
		if err != nil {
			b.Fatal(err)
		}
		if p.Pages != 100 {
			b.Fatalf("read %d pages, want 100", p.Pages)
		}
		chars = len([]rune(p.Text))
	}
	b.ReportMetric(float64(chars), "chars")
	b.ReportMetric(float64(len(data))/1024, "KiB")
}
