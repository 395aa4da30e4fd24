package httpapi

import (
	"html/template"
	"regexp"
	"strings"
)

// The OpenAPI descriptions are CommonMark; the reference page renders the
// part they use: paragraphs, bullet and numbered lists (an item goes on in
// its indented lines), `code`, **bold**, *emphasis* and [links](url) to
// this site or http(s). Everything else is escaped text.

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	bold       = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	emphasis   = regexp.MustCompile(`(^|[\s(])\*([^*\s][^*]*)\*`)
	mdLink     = regexp.MustCompile(`\[([^\]]+)\]\(((?:https?://|/|#)[^)\s"]*)\)`)
	bulletItem = regexp.MustCompile(`^\s{0,3}[*-]\s+`)
	numberItem = regexp.MustCompile(`^\s{0,3}\d+[.)]\s+`)
)

// inline renders one line's spans. Code spans are cut out first so that
// nothing inside them is read as Markdown.
func inline(s string) string {
	var b strings.Builder
	rest := s
	for {
		loc := inlineCode.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(spans(rest))
			return b.String()
		}
		b.WriteString(spans(rest[:loc[0]]))
		b.WriteString("<code>" + template.HTMLEscapeString(rest[loc[2]:loc[3]]) + "</code>")
		rest = rest[loc[1]:]
	}
}

func spans(s string) string {
	s = template.HTMLEscapeString(s)
	s = mdLink.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	return emphasis.ReplaceAllString(s, "$1<em>$2</em>")
}

// text renders a description: one line stays inline (table cells); more
// become paragraphs and lists.
func text(s string) template.HTML {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "\n") && !bulletItem.MatchString(s) && !numberItem.MatchString(s) {
		return template.HTML(inline(s))
	}
	var out strings.Builder
	var para []string
	var list string // "ul", "ol" or ""
	var item []string
	flushItem := func() {
		if item != nil {
			out.WriteString("<li>" + inline(strings.Join(item, " ")) + "</li>")
			item = nil
		}
	}
	flushList := func() {
		flushItem()
		if list != "" {
			out.WriteString("</" + list + ">")
			list = ""
		}
	}
	flushPara := func() {
		if para != nil {
			out.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>")
			para = nil
		}
	}
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimSpace(line)
		kind, marker := "", ""
		if m := bulletItem.FindString(line); m != "" {
			kind, marker = "ul", m
		} else if m := numberItem.FindString(line); m != "" {
			kind, marker = "ol", m
		}
		switch {
		case trimmed == "":
			flushPara()
			flushItem()
		case kind != "":
			flushPara()
			if list != kind {
				flushList()
				out.WriteString("<" + kind + ">")
				list = kind
			}
			flushItem()
			item = []string{strings.TrimSpace(line[len(marker):])}
		case list != "" && (item != nil || strings.HasPrefix(line, " ")) && strings.HasPrefix(line, " "):
			item = append(item, trimmed) // the item goes on
		default:
			flushList()
			para = append(para, trimmed)
		}
	}
	flushPara()
	flushList()
	return template.HTML(out.String())
}
