// Package pdftext is what a reader of a PDF gets, for tests: poppler's
// pdftotext, and pdfsig's report on its digital signatures. Without them (make test installs it with
// scripts/ensure-poppler.sh) a test skips, except in CI (CI=true) or with
// REQUIRE_POPPLER=1, where it fails.
package pdftext

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Of is pdftotext's text of pdf in mode ("-layout", "-raw").
func Of(t testing.TB, pdf []byte, mode string) string {
	t.Helper()
	bin := poppler(t, "pdftotext")
	out, err := exec.Command(bin, mode, "-enc", "UTF-8", file(t, pdf), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", mode, err)
	}
	return string(out)
}

// Signatures is pdfsig's report on the digital signatures of pdf ("File
// 'doc.pdf' does not contain any signatures" when it has none). pdfsig
// exits non-zero for a file without signatures or with a broken one, so its
// exit status is ignored: the report says what was found.
func Signatures(t testing.TB, pdf []byte) string {
	t.Helper()
	bin := poppler(t, "pdfsig")
	out, err := exec.Command(bin, file(t, pdf)).CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("pdfsig: %v", err)
	}
	return string(out)
}

// poppler is the path of one of poppler's tools, or skips (fails in CI).
func poppler(t testing.TB, tool string) string {
	t.Helper()
	bin, err := exec.LookPath(tool)
	if err != nil {
		msg := tool + " not installed (make poppler, or scripts/ensure-poppler.sh, installs poppler-utils)"
		if os.Getenv("CI") == "true" || os.Getenv("REQUIRE_POPPLER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

func file(t testing.TB, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
