// Package pdftext is what a reader of a PDF gets, for tests: poppler's
// pdftotext. Without it (make test installs it with
// scripts/ensure-poppler.sh) a test skips, except in CI (CI=true) or with
// REQUIRE_POPPLER=1, where it fails.
package pdftext

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Of is pdftotext's text of pdf in mode ("-layout", "-raw").
func Of(t testing.TB, pdf []byte, mode string) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		msg := "pdftotext not installed (make poppler, or scripts/ensure-poppler.sh, installs poppler-utils)"
		if os.Getenv("CI") == "true" || os.Getenv("REQUIRE_POPPLER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, mode, "-enc", "UTF-8", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", mode, err)
	}
	return string(out)
}
