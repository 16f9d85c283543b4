package kb

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Dropping files and a folder on the Knowledge panel: .md and .txt files are
// copied (a .txt as .md), the folder keeps its name and structure, and what
// is not copied is reported with why — never overwriting a document.
func TestDroppedFilesAndFoldersAreCopiedAndTheRestReported(t *testing.T) {
	f := newFixture(t, "")
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "a.md"), "# A\n")
	writeFile(t, filepath.Join(src, "b.txt"), "メモ\n")
	writeFile(t, filepath.Join(src, "image.png"), "PNG")
	writeFile(t, filepath.Join(src, "sjis.txt"), "\x83\x81\x83\x82") // "メモ" in Shift_JIS
	writeFile(t, filepath.Join(src, "notes", "sub", "c.md"), "# C\n")
	writeFile(t, filepath.Join(src, "notes", "d.pdf"), "%PDF")
	writeFile(t, filepath.Join(src, "notes", ".git", "x.md"), "# hidden\n")
	writeFile(t, filepath.Join(src, "same.md"), "# same\n")
	writeFile(t, filepath.Join(src, "clash.md"), "# mine\n")
	writeFile(t, filepath.Join(src, "other", "a.md"), "# another A\n") // dropped alone: lands on a.md too
	big := filepath.Join(src, "big.md")
	writeFile(t, big, strings.Repeat("x", maxDocBytes+1))
	// Already in the knowledge base: the same text, and a different one.
	writeFile(t, filepath.Join(f.dir, "same.md"), "# same\n")
	writeFile(t, filepath.Join(f.dir, "clash.md"), "# theirs\n")

	var steps [][2]int
	dropped := []string{"a.md", "b.txt", "image.png", "sjis.txt", "notes", "same.md", "clash.md", "other/a.md", "big.md"}
	for i, p := range dropped {
		dropped[i] = filepath.Join(src, p)
	}
	dropped = append(dropped, filepath.Join(f.dir, "same.md")) // dragged out of the KB itself
	rep, err := f.svc.ImportDropped(context.Background(), dropped, func(done, total int) { steps = append(steps, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(rep.Copied)
	if strings.Join(rep.Copied, ",") != "a.md,b.md,notes/sub/c.md" {
		t.Fatalf("copied = %v", rep.Copied)
	}
	if got, _ := os.ReadFile(filepath.Join(f.dir, "b.md")); string(got) != "メモ\n" {
		t.Fatalf("b.txt stored as %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(f.dir, "clash.md")); string(got) != "# theirs\n" {
		t.Fatal("an existing document was overwritten")
	}
	if _, err := os.Stat(filepath.Join(f.dir, "notes", ".git")); err == nil {
		t.Fatal("a hidden folder was copied")
	}
	why := map[string]string{}
	for _, s := range rep.Skipped {
		rel, _ := filepath.Rel(src, s.Path)
		if strings.HasPrefix(rel, "..") {
			rel = "kb:" + filepath.Base(s.Path)
		}
		why[filepath.ToSlash(rel)] = s.Reason
	}
	want := map[string]string{
		"image.png": DropUnsupported, "notes/d.pdf": DropUnsupported, "sjis.txt": DropUnreadable, "big.md": DropTooBig,
		"same.md": DropDuplicate, "clash.md": DropExists, "other/a.md": DropDuplicate, "kb:same.md": DropDuplicate,
	}
	for p, r := range want {
		if why[p] != r {
			t.Errorf("%s: reason %q, want %q (all: %v)", p, why[p], r, why)
		}
	}
	if len(rep.Skipped) != len(want) || rep.SkippedMore != 0 {
		t.Errorf("skipped %d entries, want %d: %v", len(rep.Skipped), len(want), why)
	}
	if len(steps) == 0 || steps[len(steps)-1] != [2]int{7, 7} || steps[0] != [2]int{0, 7} {
		t.Errorf("progress = %v, want 0/7 … 7/7 (seven planned copies)", steps)
	}

	// The copies are indexed like any document.
	if _, err := f.svc.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if paths := f.searchPaths(t, "メモ", 5); !slices.Contains(paths, "b.md") {
		t.Errorf("the dropped .txt is not searchable: %v", paths)
	}
}
