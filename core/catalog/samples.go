package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Sample languages, in the order the panel shows them.
const (
	SampleCurl   = "curl"
	SamplePython = "python"
	SampleNode   = "node"
	SamplePHP    = "php"
	SampleGo     = "go"
)

// SampleLanguages lists every language Samples writes.
var SampleLanguages = []string{SampleCurl, SamplePython, SampleNode, SamplePHP, SampleGo}

// Placeholders the samples carry instead of credentials: the secret is
// shown once and never stored, so no sample can hold it; the caller
// replaces both.
const (
	SampleKeyPlaceholder    = "YOUR_API_KEY"
	SampleSecretPlaceholder = "YOUR_API_SECRET"
)

// SampleCall is what a sample calls: the service's full URL (the server's
// public base URL and the service's endpoint), its method, its parameter
// rules (Specs: the docs' request_params, else its parameter list) and
// whether it is a built-in gateway service, which takes the key's secret as
// `Authorization: Bearer` (docs/decisions.md, "Gateway operations are metered
// like service calls"); any other service takes the
// X-API-Key and X-API-Secret headers.
type SampleCall struct {
	URL     string
	Method  string
	Params  map[string]ParamSpec
	Gateway bool
}

// Samples writes the call in curl, Python (requests), Node.js (fetch), PHP
// (curl) and Go (net/http), keyed by SampleLanguages. Parameters go in the
// query string for GET and DELETE and in a JSON body for POST and PUT (as
// the metered call reads them); a dotted name (beneficiary.type) is a member
// of a nested object in a JSON body. The sample sends every required
// parameter with an example value (or, when none is required, every
// parameter); see ExampleValue.
func Samples(c SampleCall) map[string]string {
	c.Method = strings.ToUpper(c.Method)
	s := sample{SampleCall: c, query: !hasBody(c.Method)}
	for _, name := range sampleParams(c.Params) {
		s.names = append(s.names, name)
		s.values = append(s.values, ExampleValue(name, c.Params[name]))
	}
	return map[string]string{
		SampleCurl: s.curl(), SamplePython: s.python(), SampleNode: s.node(), SamplePHP: s.php(), SampleGo: s.goSample(),
	}
}

func hasBody(method string) bool { return method == "POST" || method == "PUT" }

// sampleParams are the names a sample sends, sorted: the required ones, or
// every one when none is required.
func sampleParams(specs map[string]ParamSpec) []string {
	var required, all []string
	for name, p := range specs {
		all = append(all, name)
		if p.Required {
			required = append(required, name)
		}
	}
	out := required
	if len(out) == 0 {
		out = all
	}
	sort.Strings(out)
	return out
}

// moneyParam: names that hold an amount of money; their example is a
// decimal string ("100.00"), the contract's form for money, never a float.
var moneyParam = regexp.MustCompile(`(^|[_.])(amount|price|fee|total)$`)

// hints are example values for common parameter names (the last dotted
// part, lowercased), valid for the built-in services' rules.
var hints = map[string]string{
	"email": "asha@example.com", "mobile": "9876543210", "phone": "9876543210", "ifsc": "HDFC0001234",
	"vpa": "asha@okaxis", "pan": "ABCDE1234F", "aadhaar": "234567890123", "currency": "INR",
	"callback_url": "https://example.com/callback", "url": "https://example.com", "reference_id": "ref-1001",
	"customer_id": "cust_1001", "name": "Asha Rao", "account_number": "123456789012", "message": "Hello from Paygate",
	"operator": "jio", "circle": "delhi", "mode": "IMPS", "product": "savings", "address": "12 MG Road, Bengaluru",
	"narration": "Invoice 1001",
}

// literalChoices matches a pattern that only lists choices: ^(a|b)$.
var literalChoices = regexp.MustCompile(`^\^\((?:\?:)?([A-Za-z0-9_@ -]+(?:\|[A-Za-z0-9_@ -]+)+)\)\$$`)

// ExampleValue is the value a sample sends for a parameter: the first
// choice of a pattern like ^(a|b)$; else by type: integer 1, boolean true,
// date 1990-01-01, number 1.5 (or "100.00" for a money name); a string is a
// hint for its name or "example", cut to max_length. The value is a string,
// a bool or a json.Number (written as its digits).
func ExampleValue(name string, p ParamSpec) any {
	if p.Pattern != nil {
		if m := literalChoices.FindStringSubmatch(*p.Pattern); m != nil && (p.Type == "string" || p.Type == "") {
			return strings.Split(m[1], "|")[0]
		}
	}
	last := strings.ToLower(name[strings.LastIndex(name, ".")+1:])
	switch p.Type {
	case "integer":
		return json.Number("1")
	case "number":
		if moneyParam.MatchString(strings.ToLower(name)) {
			return "100.00"
		}
		return json.Number("1.5")
	case "boolean":
		return true
	case "date":
		return "1990-01-01"
	}
	v, ok := hints[last]
	if !ok {
		v = "example"
	}
	if p.MaxLength != nil && len([]rune(v)) > *p.MaxLength {
		v = string([]rune(v)[:*p.MaxLength])
	}
	return v
}

type sample struct {
	SampleCall
	query  bool // parameters in the query string
	names  []string
	values []any
}

// text is a value as a query-string value.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return string(x)
	}
	return fmt.Sprint(v)
}

// queryString is "?a=1&b=2", or "".
func (s sample) queryString() string {
	if !s.query || len(s.names) == 0 {
		return ""
	}
	q := url.Values{}
	for i, n := range s.names {
		q.Set(n, text(s.values[i]))
	}
	return "?" + q.Encode()
}

// tree is the JSON body: dotted names nest, as the try-it console sends
// them; a name whose path runs into a value stays a flat member.
func (s sample) tree() map[string]any {
	root := map[string]any{}
	for i, name := range s.names {
		parts := strings.Split(name, ".")
		obj, ok := root, len(parts) > 1 && !slicesContain(parts, "")
		if ok {
			for _, p := range parts[:len(parts)-1] {
				next, exists := obj[p]
				if !exists {
					child := map[string]any{}
					obj[p] = child
					obj = child
					continue
				}
				child, isObj := next.(map[string]any)
				if !isObj {
					ok = false
					break
				}
				obj = child
			}
		}
		if last := parts[len(parts)-1]; ok {
			if _, taken := obj[last]; !taken {
				obj[last] = s.values[i]
				continue
			}
		}
		root[name] = s.values[i]
	}
	return root
}

func slicesContain(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// bodyJSON is the JSON body, indented by two spaces; "" without a body.
func (s sample) bodyJSON() string {
	if s.query {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(s.tree()) // strings, bools, json.Numbers and maps: cannot fail
	return strings.TrimSuffix(b.String(), "\n")
}

// headers are the request's headers, in order.
func (s sample) headers() [][2]string {
	var h [][2]string
	if s.Gateway {
		h = append(h, [2]string{"Authorization", "Bearer " + SampleSecretPlaceholder})
	} else {
		h = append(h, [2]string{"X-API-Key", SampleKeyPlaceholder}, [2]string{"X-API-Secret", SampleSecretPlaceholder})
	}
	h = append(h, [2]string{"Accept", "application/json"})
	if !s.query {
		h = append(h, [2]string{"Content-Type", "application/json"})
	}
	return h
}

// jsonString is s as a JSON (and JavaScript, Python and Go) string literal.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (s sample) curl() string {
	lines := []string{"curl -sS -X " + s.Method + " " + shellQuote(s.URL+s.queryString())}
	for _, h := range s.headers() {
		lines = append(lines, "  -H "+shellQuote(h[0]+": "+h[1]))
	}
	if body := s.bodyJSON(); body != "" {
		lines = append(lines, "  -d "+shellQuote(body))
	}
	return strings.Join(lines, " \\\n") + "\n"
}

// pyValue writes v as a Python literal, indented for depth.
func pyValue(v any, depth int) string {
	switch x := v.(type) {
	case string:
		return jsonString(x)
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return string(x)
	case map[string]any:
		return dictLiteral(x, depth, "    ", pyValue)
	}
	return jsonString(fmt.Sprint(v))
}

// jsValue writes v as a JavaScript literal.
func jsValue(v any, depth int) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case map[string]any:
		return dictLiteral(x, depth, "  ", jsValue)
	}
	return pyValue(v, depth)
}

// dictLiteral writes an object literal with quoted keys, sorted, one member
// a line, indented by unit per level.
func dictLiteral(m map[string]any, depth int, unit string, value func(any, int) string) string {
	if len(m) == 0 {
		return "{}"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pad := strings.Repeat(unit, depth+1)
	var b strings.Builder
	b.WriteString("{\n")
	for _, k := range keys {
		b.WriteString(pad + jsonString(k) + ": " + value(m[k], depth+1) + ",\n")
	}
	b.WriteString(strings.Repeat(unit, depth) + "}")
	return b.String()
}

// params is the query parameters as a map of strings.
func (s sample) params() map[string]any {
	m := map[string]any{}
	for i, n := range s.names {
		m[n] = text(s.values[i])
	}
	return m
}

func (s sample) headerMap() map[string]any {
	m := map[string]any{}
	for _, h := range s.headers() {
		m[h[0]] = h[1]
	}
	return m
}

func (s sample) python() string {
	var b strings.Builder
	b.WriteString("import requests\n\nresponse = requests.request(\n")
	b.WriteString("    " + jsonString(s.Method) + ",\n")
	b.WriteString("    " + jsonString(s.URL) + ",\n")
	b.WriteString("    headers=" + pyValue(s.headerMap(), 1) + ",\n")
	switch {
	case s.query && len(s.names) > 0:
		b.WriteString("    params=" + pyValue(s.params(), 1) + ",\n")
	case !s.query:
		b.WriteString("    json=" + pyValue(s.tree(), 1) + ",\n")
	}
	b.WriteString("    timeout=30,\n)\nprint(response.status_code)\nprint(response.json())\n")
	return b.String()
}

func (s sample) node() string {
	var b strings.Builder
	b.WriteString("async function main() {\n")
	b.WriteString("  const url = new URL(" + jsonString(s.URL) + ");\n")
	if s.query && len(s.names) > 0 {
		b.WriteString("  url.search = new URLSearchParams(" + indentTail(jsValue(s.params(), 0), "  ") + ").toString();\n")
	}
	b.WriteString("  const response = await fetch(url, {\n")
	b.WriteString("    method: " + jsonString(s.Method) + ",\n")
	b.WriteString("    headers: " + indentTail(jsValue(s.headerMap(), 0), "    ") + ",\n")
	if !s.query {
		b.WriteString("    body: JSON.stringify(" + indentTail(jsValue(s.tree(), 0), "    ") + "),\n")
	}
	b.WriteString("  });\n  console.log(response.status);\n  console.log(await response.json());\n}\n\n")
	b.WriteString("main().catch((err) => {\n  console.error(err);\n  process.exitCode = 1;\n});\n")
	return b.String()
}

// indentTail indents every line of s but the first.
func indentTail(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }

// phpString is s as a single-quoted PHP string.
func phpString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func (s sample) php() string {
	var b strings.Builder
	b.WriteString("<?php\n$ch = curl_init(" + phpString(s.URL+s.queryString()) + ");\n")
	b.WriteString("curl_setopt_array($ch, [\n")
	b.WriteString("    CURLOPT_CUSTOMREQUEST => " + phpString(s.Method) + ",\n")
	b.WriteString("    CURLOPT_HTTPHEADER => [\n")
	for _, h := range s.headers() {
		b.WriteString("        " + phpString(h[0]+": "+h[1]) + ",\n")
	}
	b.WriteString("    ],\n")
	if body := s.bodyJSON(); body != "" {
		b.WriteString("    CURLOPT_POSTFIELDS => " + indentTail(phpString(body), "    ") + ",\n")
	}
	b.WriteString("    CURLOPT_RETURNTRANSFER => true,\n    CURLOPT_TIMEOUT => 30,\n]);\n")
	b.WriteString("$body = curl_exec($ch);\nif ($body === false) {\n    fwrite(STDERR, curl_error($ch) . \"\\n\");\n    exit(1);\n}\n")
	b.WriteString("echo curl_getinfo($ch, CURLINFO_RESPONSE_CODE), \"\\n\", $body, \"\\n\";\ncurl_close($ch);\n")
	return b.String()
}

// goString is s as a Go string literal: raw when it can be.
func goString(s string) string {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

func (s sample) goSample() string {
	var b strings.Builder
	body := s.bodyJSON()
	b.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"net/http\"\n")
	if body != "" {
		b.WriteString("\t\"strings\"\n")
	}
	b.WriteString("\t\"time\"\n)\n\nfunc main() {\n")
	bodyArg := "nil"
	if body != "" {
		b.WriteString("\tbody := strings.NewReader(" + goString(body) + ")\n")
		bodyArg = "body"
	}
	b.WriteString("\treq, err := http.NewRequest(" + strconv.Quote(s.Method) + ", " + strconv.Quote(s.URL+s.queryString()) + ", " + bodyArg + ")\n")
	b.WriteString("\tif err != nil {\n\t\tpanic(err)\n\t}\n")
	for _, h := range s.headers() {
		b.WriteString("\treq.Header.Set(" + strconv.Quote(h[0]) + ", " + strconv.Quote(h[1]) + ")\n")
	}
	b.WriteString("\tclient := &http.Client{Timeout: 30 * time.Second}\n")
	b.WriteString("\tres, err := client.Do(req)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\tdefer res.Body.Close()\n")
	b.WriteString("\tout, err := io.ReadAll(res.Body)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n")
	b.WriteString("\tfmt.Println(res.StatusCode)\n\tfmt.Println(string(out))\n}\n")
	return b.String()
}
