package kb

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
)

func TestAFileThatCannotBeIndexedCarriesItsCodeInStatusAndTree(t *testing.T) {
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "binary.md"), "\x00\x01\x02PNG")
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	st, _ := f.svc.Status(ctx)
	if len(st.Failed) != 1 {
		t.Fatalf("failed = %+v", st.Failed)
	}
	fd := st.Failed[0]
	if fd.ErrorInfo == nil || fd.ErrorInfo.Code != apperr.KBNotText || fd.Error != "not a text file (it contains NUL bytes)" {
		t.Errorf("failed doc = %+v (info %+v)", fd, fd.ErrorInfo)
	}
	tree, err := f.svc.Tree(ctx)
	if err != nil || len(tree.Children) != 1 {
		t.Fatalf("tree = %+v, %v", tree, err)
	}
	if n := tree.Children[0]; n.ErrorInfo == nil || n.ErrorInfo.Code != apperr.KBNotText || n.Error != fd.Error {
		t.Errorf("tree node = %+v", n)
	}
}

func TestBrowseErrorsKeepTheirSentinelsAndCodes(t *testing.T) {
	f := newFixture(t, "")
	_, err := f.svc.Read(context.Background(), "../outside.md")
	if !errors.Is(err, ErrOutsideRoot) || apperr.CodeOf(err) != apperr.KBOutsideRoot {
		t.Errorf("reading outside the root: %v (%s)", err, apperr.CodeOf(err))
	}
}
