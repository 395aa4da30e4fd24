package httpapi

import "testing"

func TestDocsMarkdown(t *testing.T) {
	cases := map[string]string{
		"one `a*b*c` line":                                "one <code>a*b*c</code> line",
		"**Bold** and *em* <x>":                           "<strong>Bold</strong> and <em>em</em> &lt;x&gt;",
		"see [docs](/api/docs) or [x](js:1)":              `see <a href="/api/docs">docs</a> or [x](js:1)`,
		"Intro.\n\n* **A** one\n  goes on\n* B\n\nAfter.": "<p>Intro.</p><ul><li><strong>A</strong> one goes on</li><li>B</li></ul><p>After.</p>",
		"1. first\n2. second":                             "<ol><li>first</li><li>second</li></ol>",
		"line one\nline two":                              "<p>line one line two</p>",
	}
	for in, want := range cases {
		if got := string(text(in)); got != want {
			t.Errorf("text(%q) =\n %s\nwant\n %s", in, got, want)
		}
	}
}
