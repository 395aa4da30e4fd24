package storage_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paygate/adapters/storage"
	"paygate/core/platform/errs"
)

func newLocal(t *testing.T) (*storage.Local, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "uploads", "nested") // created on demand
	l, err := storage.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, dir
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

func TestSaveOpenDelete(t *testing.T) {
	ctx := context.Background()
	l, dir := newLocal(t)
	content := bytes.Repeat([]byte("paygate"), 100_000)
	name := "01JABCDEFGHJKMNPQRSTVWXYZ0.png"
	if err := l.Save(ctx, name, bytes.NewReader(content)); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != name {
		t.Fatalf("folder holds %v, want only %s (no temporary file left)", got, name)
	}
	f, err := l.Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(got, content) {
		t.Fatalf("read %d bytes, want the %d saved", len(got), len(content))
	}
	if err := l.Delete(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Open(ctx, name); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("Open after Delete: %v, want NotFound", err)
	}
	if err := l.Delete(ctx, name); err != nil {
		t.Fatalf("Delete of a missing file: %v", err)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n--
		return copy(p, strings.Repeat("x", len(p))), nil
	}
	return 0, errors.New("client went away")
}

func TestSaveFailureLeavesNothing(t *testing.T) {
	l, dir := newLocal(t)
	err := l.Save(context.Background(), "A1.pdf", &failingReader{n: 3})
	if err == nil || !strings.Contains(err.Error(), "client went away") {
		t.Fatalf("Save = %v, want the reader's error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Save(ctx, "A2.pdf", strings.NewReader("data")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Save with a cancelled context = %v", err)
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("failed saves left %v", got)
	}
	if _, err := l.Open(context.Background(), "A1.pdf"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a failed save is readable: %v", err)
	}
}

func TestNamesOtherThanServerChosenAreRefused(t *testing.T) {
	ctx := context.Background()
	l, dir := newLocal(t)
	outside := filepath.Join(filepath.Dir(dir), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"", "x", "../secret.txt", "../../etc/passwd", "/etc/passwd", "a/b.png", `a\b.png`, ".tmp-abc", "..png",
		"x.png/..", "x..png", "x.png\x00.pdf", "name with space.png", "%2e%2e.png", "x.PNG/", "x.toolongextension",
	} {
		if err := l.Save(ctx, name, strings.NewReader("x")); !errors.Is(err, storage.ErrBadName) {
			t.Errorf("Save(%q) = %v, want ErrBadName", name, err)
		}
		if _, err := l.Open(ctx, name); !errors.Is(err, storage.ErrBadName) {
			t.Errorf("Open(%q) = %v, want ErrBadName", name, err)
		}
		if err := l.Delete(ctx, name); !errors.Is(err, storage.ErrBadName) {
			t.Errorf("Delete(%q) = %v, want ErrBadName", name, err)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret" {
		t.Fatal("a file outside the folder changed")
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Fatalf("refused names left %v", got)
	}
}

func TestSymlinkOutOfTheFolderIsNotFollowed(t *testing.T) {
	ctx := context.Background()
	l, dir := newLocal(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "LINK.png")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	if f, err := l.Open(ctx, "LINK.png"); err == nil {
		b, _ := io.ReadAll(f)
		f.Close()
		t.Fatalf("Open followed a link out of the folder: %q", b)
	}
}
