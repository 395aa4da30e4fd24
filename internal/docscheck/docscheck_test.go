// Package docscheck_test keeps the project's pointers honest (style rule 16:
// comments and docs point only at what a reader can open).
//
//   - A Go comment that cites a decision, as `docs/decisions.md, "Heading"`,
//     `(docs/decisions.md "Heading")`, `decisions: "Heading"`,
//     `decisions, "Heading"` or `docs/decisions.md's "Heading"` (the
//     quoted text may run over several comment lines), names a heading of
//     docs/decisions.md: the heading itself or its first words (`"Tax
//     invoices"` for "Tax invoices, credit notes and statements"). A citation without quotes (`docs/decisions.md,
//     Webhooks`) fails too: quote the heading so this test can read it.
//   - A Go comment names no document outside the repository: the product
//     specification's parts (`decisions part 3`, `seed 4.2`, `seed-spec`),
//     the shared style guide (`shared/style.md`, `../shared/…`), or a
//     `.md` file that is neither in the repository nor beside the Go file.
//   - Every relative link of README.md, UPGRADING.md and docs/*.md leads to
//     a file of the repository and, with a `#fragment` into a Markdown file,
//     to a heading of it (GitHub's anchors: lower case, punctuation dropped,
//     spaces to '-', a repeated heading suffixed -1, -2, …). Those documents'
//     own `decisions: "Heading"` citations are checked like the comments'.
package docscheck_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the folder of go.mod above the test's working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// heading is one Markdown heading: its text as written and its anchor.
type heading struct {
	text   string
	anchor string
}

var fenceLine = regexp.MustCompile("^\\s*(```|~~~)")

// headings returns a Markdown file's headings (outside fenced code), with
// GitHub's anchors, duplicates numbered as GitHub numbers them.
func headings(t *testing.T, path string) []heading {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []heading
	seen := map[string]int{}
	inFence := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if fenceLine.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		m := regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`).FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := anchor(m[1])
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a = a + "-" + itoa(n)
		} else {
			seen[a] = 1
		}
		out = append(out, heading{text: m[1], anchor: a})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

var mdLinkInHeading = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// anchor is GitHub's anchor of a heading: the text without its Markdown
// (links keep their words, code its content), lower case, every character
// other than a letter, digit, '-', '_' or space dropped, spaces to '-'.
func anchor(text string) string {
	text = mdLinkInHeading.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plain is a heading or citation as compared: no backticks or emphasis,
// blanks collapsed.
func plain(s string) string {
	s = strings.NewReplacer("`", "", "*", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// citesHeading reports whether cited names one of the headings: the
// heading itself, or its first words.
func citesHeading(cited string, hs []heading) bool {
	c := plain(cited)
	if c == "" {
		return false
	}
	for _, h := range hs {
		p := plain(h.text)
		if p == c {
			return true
		}
		if strings.HasPrefix(p, c) {
			next := []rune(p[len(c):])[0]
			last := []rune(c)[len([]rune(c))-1]
			if !unicode.IsLetter(next) && !unicode.IsDigit(next) || !unicode.IsLetter(last) && !unicode.IsDigit(last) {
				return true
			}
		}
	}
	return false
}

var (
	// quotedCitation: the quoted heading after a pointer at the decisions.
	quotedCitation = regexp.MustCompile(`\bdecisions(?:\.md)?(?:'s)?[,:]?\s*"([^"]+)"`)
	// bareCitation: a pointer at the decisions followed by words, not a
	// quoted heading: a citation this test cannot check.
	bareCitation = regexp.MustCompile(`\b(?:decisions\.md[,:]|decisions:)\s*([^"\s][^.;,)"]*)`)
	// anchorCitation: a link-like pointer at a heading of decisions.md.
	anchorCitation = regexp.MustCompile(`\bdecisions\.md#([\w-]+)`)
	// outside: names of documents that are not in the repository.
	outside = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bseed[- ]spec`),
		regexp.MustCompile(`(?i)\bseed(?:'s)?\s+(?:part\s+|section\s+|§\s*)?\d+(?:\.\d+)*`),
		regexp.MustCompile(`(?i)\b(?:decisions|spec|specification|seed)(?:'s)?\s+(?:part|section|§)\s*\d+`),
		regexp.MustCompile(`(?i)\bpart\s+\d+(?:'s)?\s+(?:of\s+the\s+)?(?:spec|specification|decisions)\b`),
		regexp.MustCompile(`(?i)(?:\.\./|/work/)shared/`),
		regexp.MustCompile(`(?i)\bshared/(?:style|spec)`),
	}
	// mdFile: a Markdown file named in a comment.
	mdFile = regexp.MustCompile(`(?:^|[\s("'])((?:\.{1,2}/)?[\w./-]*[\w-]\.md)\b`)
)

// goFiles lists the repository's Go files, leaving out dependencies and
// build output.
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "vendor", "dist", "bin", "data":
				return filepath.SkipDir
			}
			return nil
		}
		// This file describes the patterns it looks for.
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "docscheck_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCommentsCiteExistingDecisions: every Go comment that points at a
// decision names a heading of docs/decisions.md, and no comment names a
// document outside the repository.
func TestCommentsCiteExistingDecisions(t *testing.T) {
	root := repoRoot(t)
	hs := headings(t, filepath.Join(root, "docs", "decisions.md"))
	anchors := map[string]bool{}
	for _, h := range hs {
		anchors[h.anchor] = true
	}
	files := goFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s", len(files), root)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		rel, _ := filepath.Rel(root, path)
		for _, cg := range f.Comments {
			text := strings.Join(strings.Fields(cg.Text()), " ")
			at := func() string { return rel + ":" + itoa(fset.Position(cg.Pos()).Line) }
			for _, m := range quotedCitation.FindAllStringSubmatch(text, -1) {
				if !citesHeading(m[1], hs) {
					t.Errorf("%s: cites %q, which is no heading of docs/decisions.md", at(), m[1])
				}
			}
			for _, m := range bareCitation.FindAllStringSubmatch(text, -1) {
				t.Errorf("%s: cites the decisions as %q: quote the heading (docs/decisions.md, \"Heading\")", at(), m[0])
			}
			for _, m := range anchorCitation.FindAllStringSubmatch(text, -1) {
				if !anchors[m[1]] {
					t.Errorf("%s: links docs/decisions.md#%s, which is no heading there", at(), m[1])
				}
			}
			for _, re := range outside {
				for _, m := range re.FindAllString(text, -1) {
					t.Errorf("%s: %q names a document outside the repository; cite docs/decisions.md or a file here", at(), m)
				}
			}
			for _, m := range mdFile.FindAllStringSubmatch(text, -1) {
				name := m[1]
				if !exists(filepath.Join(root, name)) && !exists(filepath.Join(filepath.Dir(path), name)) {
					t.Errorf("%s: names %s, which is not in the repository", at(), name)
				}
			}
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// docs are the documents whose links and citations are checked.
func docs(t *testing.T, root string) []string {
	t.Helper()
	files := []string{filepath.Join(root, "README.md")}
	if exists(filepath.Join(root, "UPGRADING.md")) {
		files = append(files, filepath.Join(root, "UPGRADING.md"))
	}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, more...)
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
)

// TestDocLinksResolve: every relative link of the README, UPGRADING.md and
// docs/ opens a file of the repository and, with a fragment, a heading of
// it; the documents' own decision citations name existing headings.
func TestDocLinksResolve(t *testing.T) {
	root := repoRoot(t)
	decisions := headings(t, filepath.Join(root, "docs", "decisions.md"))
	anchorsOf := map[string]map[string]bool{}
	anchorSet := func(path string) map[string]bool {
		if a, ok := anchorsOf[path]; ok {
			return a
		}
		a := map[string]bool{}
		for _, h := range headings(t, path) {
			a[h.anchor] = true
		}
		anchorsOf[path] = a
		return a
	}
	for _, doc := range docs(t, root) {
		rel, _ := filepath.Rel(root, doc)
		body, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		var prose strings.Builder
		for i, line := range strings.Split(string(body), "\n") {
			if fenceLine.MatchString(line) {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			prose.WriteString(line + "\n")
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				at := rel + ":" + itoa(i+1)
				file, frag, _ := strings.Cut(target, "#")
				path := doc
				if file != "" {
					path = filepath.Join(filepath.Dir(doc), file)
					if !exists(path) {
						t.Errorf("%s: link %s: no file %s", at, target, file)
						continue
					}
				}
				if frag != "" && strings.HasSuffix(path, ".md") && !anchorSet(path)[frag] {
					t.Errorf("%s: link %s: no heading with anchor #%s in %s", at, target, frag, filepath.Base(path))
				}
			}
		}
		if filepath.Base(doc) == "decisions.md" {
			continue
		}
		text := strings.Join(strings.Fields(prose.String()), " ")
		for _, m := range quotedCitation.FindAllStringSubmatch(text, -1) {
			if !citesHeading(m[1], decisions) {
				t.Errorf("%s: cites %q, which is no heading of docs/decisions.md", rel, m[1])
			}
		}
	}
}

// TestAnchor pins the anchor rule the link check relies on.
func TestAnchor(t *testing.T) {
	for in, want := range map[string]string{
		"Plans that bill":                                    "plans-that-bill",
		"Reads see this instance's calls":                    "reads-see-this-instances-calls",
		"Production mode (`APP_ENV`)":                        "production-mode-app_env",
		"Tax invoices, credit notes and statements":          "tax-invoices-credit-notes-and-statements",
		"Hit payloads are kept for `HIT_PAYLOAD_RETENTION`":  "hit-payloads-are-kept-for-hit_payload_retention",
		"Compression: static files precompressed at build":   "compression-static-files-precompressed-at-build",
		"SQLite through modernc.org/sqlite's own driver":     "sqlite-through-moderncorgsqlites-own-driver",
		"A metered call on a hold: `POST /api/v1/<slug>`":    "a-metered-call-on-a-hold-post-apiv1slug",
		"Payouts: debited first, refunded exactly once":      "payouts-debited-first-refunded-exactly-once",
		"Where we differ from the style guide":               "where-we-differ-from-the-style-guide",
		"Emails are stored and looked up in one normal form": "emails-are-stored-and-looked-up-in-one-normal-form",
	} {
		if got := anchor(in); got != want {
			t.Errorf("anchor(%q) = %q, want %q", in, got, want)
		}
	}
	hs := []heading{{text: "Tax invoices, credit notes and statements"}, {text: "Metering group commit"}}
	for cited, want := range map[string]bool{
		"Tax invoices":                true,
		"Tax invoices, credit notes":  true,
		"Metering group commit":       true,
		"Metering group":              true,
		"Metering gro":                false,
		"Tax invoices and statements": false,
		"Metering review":             false,
		"Metering  group\ncommit":     true,
	} {
		if got := citesHeading(cited, hs); got != want {
			t.Errorf("citesHeading(%q) = %v, want %v", cited, got, want)
		}
	}
}
