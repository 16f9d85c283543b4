package kb

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestImportCopiesChangedFilesAndMirrors(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "imported")
	writeFile(t, filepath.Join(src, "a.md"), "# A\n")
	writeFile(t, filepath.Join(src, "sub", "b.md"), "# B\n")
	writeFile(t, filepath.Join(src, "image.png"), "PNG")
	writeFile(t, filepath.Join(src, ".git", "c.md"), "# hidden\n")
	os.Symlink("/etc/hostname", filepath.Join(src, "link.md"))
	ctx := context.Background()

	dry, err := Import(ctx, src, dst, ImportOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Copied) != 2 || !dry.DryRun {
		t.Errorf("dry run = %+v, want 2 to copy", dry)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Fatal("dry run created the destination")
	}

	rep, err := Import(ctx, src, dst, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(rep.Copied)
	if strings.Join(rep.Copied, ",") != "a.md,sub/b.md" || len(rep.Skipped) != 1 {
		t.Errorf("first import = %+v, want a.md and sub/b.md copied, the symlink skipped", rep)
	}
	fiSrc, _ := os.Stat(filepath.Join(src, "sub", "b.md"))
	fiDst, _ := os.Stat(filepath.Join(dst, "sub", "b.md"))
	if fiDst == nil || !sameTime(fiSrc.ModTime(), fiDst.ModTime()) {
		t.Error("the copy does not keep the source's mtime")
	}

	rep, _ = Import(ctx, src, dst, ImportOptions{})
	if rep.Unchanged != 2 || len(rep.Copied)+len(rep.Updated) != 0 {
		t.Errorf("second import = %+v, want 2 unchanged", rep)
	}

	// A change of size or mtime is copied; a file gone from src stays
	// without --mirror and goes with it.
	writeFile(t, filepath.Join(src, "a.md"), "# A changed\n")
	os.Chtimes(filepath.Join(src, "a.md"), time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	os.Remove(filepath.Join(src, "sub", "b.md"))
	writeFile(t, filepath.Join(dst, "local.md"), "# written in the KB\n")
	rep, _ = Import(ctx, src, dst, ImportOptions{})
	if len(rep.Updated) != 1 || len(rep.Removed) != 0 {
		t.Errorf("update import = %+v, want a.md updated, nothing removed", rep)
	}
	rep, _ = Import(ctx, src, dst, ImportOptions{Mirror: true, DryRun: true})
	if len(rep.Removed) != 2 {
		t.Errorf("mirror dry run = %+v, want 2 to remove", rep)
	}
	if _, err := os.Stat(filepath.Join(dst, "local.md")); err != nil {
		t.Fatal("mirror dry run removed a file")
	}
	rep, _ = Import(ctx, src, dst, ImportOptions{Mirror: true})
	slices.Sort(rep.Removed)
	if strings.Join(rep.Removed, ",") != "local.md,sub/b.md" {
		t.Errorf("mirror removed %v", rep.Removed)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, "a.md")); string(data) != "# A changed\n" {
		t.Errorf("a.md = %q", data)
	}
}

func TestImportNeverWritesOutsideTheDestination(t *testing.T) {
	src, dst, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "escape", "x.md"), "# X\n")
	// dst/escape is a symlink to a folder outside dst.
	if err := os.Symlink(outside, filepath.Join(dst, "escape")); err != nil {
		t.Fatal(err)
	}
	// The file is refused (reported as skipped), the import goes on.
	rep, err := Import(context.Background(), src, dst, ImportOptions{})
	if err != nil || len(rep.Copied) != 0 || len(rep.Skipped) != 1 || !strings.HasPrefix(rep.Skipped[0], "escape/x.md") {
		t.Errorf("import through a symlinked folder: %+v, %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.md")); err == nil {
		t.Error("import wrote outside the destination")
	}
	if _, err := Import(context.Background(), src, filepath.Join(src, "inner"), ImportOptions{}); err == nil {
		t.Error("import into a folder inside the source succeeded")
	}
}

func TestAnOversizedFileIsSkippedNotFatal(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "a.md"), "# A\n")
	writeFile(t, filepath.Join(src, "huge.md"), "# H\n"+strings.Repeat("x", maxDocBytes))
	for _, dry := range []bool{true, false} {
		rep, err := Import(context.Background(), src, dst, ImportOptions{DryRun: dry})
		if err != nil || len(rep.Copied) != 1 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], "huge.md: larger than") {
			t.Errorf("dry run %v: %+v, %v", dry, rep, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "huge.md")); err == nil {
		t.Error("the oversized file was copied")
	}
}
