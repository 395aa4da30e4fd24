package invoicepdf_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paygate/internal/pdftext"
)

var keep = flag.String("keep", "", "also write the rendered PDFs into this folder, to look at them (pdftoppm -png -r 80)")

// pdfText is what a reader of the PDF gets: poppler's pdftotext, in two
// modes. layout keeps the page's arrangement (columns side by side); flat is
// the text in the order it was drawn, with every run of white space one
// space, so a wrapped cell reads as one phrase. Without poppler (make test
// installs it with scripts/ensure-poppler.sh) the test skips, except in CI
// or with REQUIRE_POPPLER=1, where it fails.
func pdfText(t *testing.T, name string, pdf []byte) (layout, flat string) {
	t.Helper()
	if *keep != "" {
		if err := os.WriteFile(filepath.Join(*keep, name+".pdf"), pdf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pdftext.Of(t, pdf, "-layout"), strings.Join(strings.Fields(pdftext.Of(t, pdf, "-raw")), " ")
}

// pages counts the pages pdftotext found (it ends each with a form feed).
func pages(layout string) int { return strings.Count(layout, "\f") }

func mustContain(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF's text lacks %q", w)
		}
	}
}

func mustNotContain(t *testing.T, text string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(text, w) {
			t.Errorf("the PDF's text has %q", w)
		}
	}
}
