package pdftext

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// QRCodes are the texts of the QR codes printed on pdf's pages, as a phone
// reads them: each page rendered by poppler's pdftoppm at 300 dpi, then
// read by zbar's zbarimg. Without either tool the test skips (it fails in
// CI, or with REQUIRE_POPPLER=1); make test installs both.
func QRCodes(t testing.TB, pdf []byte) []string {
	t.Helper()
	ppm, err1 := exec.LookPath("pdftoppm")
	zbar, err2 := exec.LookPath("zbarimg")
	if err1 != nil || err2 != nil {
		msg := "pdftoppm or zbarimg not installed (make poppler zbar installs them)"
		if os.Getenv("CI") == "true" || os.Getenv("REQUIRE_POPPLER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "doc.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(ppm, "-r", "300", "-png", "-gray", f, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	pngs, err := filepath.Glob(filepath.Join(dir, "page*.png"))
	if err != nil || len(pngs) == 0 {
		t.Fatalf("pdftoppm wrote no page: %v", err)
	}
	var codes []string
	for _, p := range pngs {
		// zbarimg exits 4 when a page has no code: not an error here.
		out, err := exec.Command(zbar, "--raw", "-q", p).Output()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 4) {
			t.Fatalf("zbarimg %s: %v", filepath.Base(p), err)
		}
		for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
			if l != "" {
				codes = append(codes, l)
			}
		}
	}
	return codes
}
