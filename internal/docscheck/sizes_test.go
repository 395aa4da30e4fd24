package docscheck_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDocsStayOnADiet holds README.md to 20,000 bytes and
// docs/decisions.md to 45,000 ("docs on a diet"), so they cannot grow back
// unnoticed: the README is a quick start, what it is, the configuration
// table and links; each decision says what, why and what was rejected,
// with mechanism in the package's doc comment and figures in
// docs/benchmarks.md.
func TestDocsStayOnADiet(t *testing.T) {
	root := repoRoot(t)
	for _, d := range []struct {
		path  string
		limit int64
		rule  string
	}{
		{"README.md", 20_000, "quick start, what it is, configuration table, links; long explanations belong in docs/"},
		{filepath.Join("docs", "decisions.md"), 45_000, "each decision what / why / rejected in a few lines; mechanism in the package's doc comment, figures in docs/benchmarks.md"},
	} {
		fi, err := os.Stat(filepath.Join(root, d.path))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > d.limit {
			t.Errorf("%s is %d bytes, over its limit of %d (docs on a diet: %s)", d.path, fi.Size(), d.limit, d.rule)
		}
	}
}
