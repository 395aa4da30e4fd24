package httpapi

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/api"
)

// openAPIDocument serves api/openapi.yaml, as embedded.
func openAPIDocument(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.Blob(http.StatusOK, "application/yaml", api.OpenAPI)
}

// apiDocs serves a page rendering the OpenAPI document. The page is
// rendered on the server, once, from the embedded document: it loads
// nothing from other hosts and needs no JavaScript.
func apiDocs(c echo.Context) error {
	page, err := docsPageHTML()
	if err != nil {
		return err // logged once by the error handler, answered 500
	}
	web.PageHeaders(c, cspDocs, "same-origin")
	c.Response().Header().Set(echo.HeaderCacheControl, "no-cache")
	return c.HTMLBlob(http.StatusOK, page)
}

// docsPageHTML renders the page on first use; the document is embedded, so
// the result never changes.
var docsPageHTML = sync.OnceValues(func() ([]byte, error) { return renderDocsPage(api.OpenAPI) })

// docsPage is what the template renders.
type docsPage struct {
	Title, Version, Description string
	Security                    []docsSecurity
	Groups                      []docsGroup
	Schemas                     []docsSchema
}

type docsSecurity struct{ Name, Kind, Description string }

type docsGroup struct {
	Tag, Description string
	Ops              []docsOp
}

type docsOp struct {
	Anchor, Method, Path, Summary, Description string
	Security                                   []string
	Params                                     []docsParam
	Body                                       template.HTML
	BodyRequired                               bool
	Responses                                  []docsResponse
}

type docsParam struct {
	Name, In, Description string
	Required              bool
	Type                  template.HTML
}

type docsResponse struct {
	Status, Description string
	Type                template.HTML
}

type docsSchema struct {
	Name, Description string
	Type              template.HTML
	Props             []docsProp
}

type docsProp struct {
	Name, Description string
	Required          bool
	Type              template.HTML
}

// renderDocsPage turns the OpenAPI document into one HTML page.
func renderDocsPage(spec []byte) ([]byte, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("load OpenAPI document: %w", err)
	}
	p := docsPage{Title: doc.Info.Title, Version: doc.Info.Version, Description: doc.Info.Description}

	if doc.Components != nil {
		for _, name := range sortedKeys(doc.Components.SecuritySchemes) {
			ss := doc.Components.SecuritySchemes[name].Value
			kind := ss.Type
			switch {
			case ss.Type == "http":
				kind = "HTTP " + ss.Scheme
				if ss.BearerFormat != "" {
					kind += " (" + ss.BearerFormat + ")"
				}
			case ss.Type == "apiKey":
				kind = "API key in " + ss.In + " " + ss.Name
			}
			p.Security = append(p.Security, docsSecurity{Name: name, Kind: kind, Description: ss.Description})
		}
		for _, name := range sortedKeys(doc.Components.Schemas) {
			p.Schemas = append(p.Schemas, schemaEntry(name, doc.Components.Schemas[name].Value))
		}
	}

	groups := map[string]*docsGroup{}
	var order []string
	for _, t := range doc.Tags {
		groups[t.Name] = &docsGroup{Tag: t.Name, Description: t.Description}
		order = append(order, t.Name)
	}
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for _, method := range sortedMethods(item.Operations()) {
			op := item.Operations()[method]
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			g, ok := groups[tag]
			if !ok {
				g = &docsGroup{Tag: tag}
				groups[tag] = g
				order = append(order, tag)
			}
			g.Ops = append(g.Ops, operationEntry(doc, method, path, item, op))
		}
	}
	for _, tag := range order {
		g := groups[tag]
		slices.SortStableFunc(g.Ops, func(a, b docsOp) int {
			return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(methodRank(a.Method), methodRank(b.Method)))
		})
		if len(g.Ops) > 0 {
			p.Groups = append(p.Groups, *g)
		}
	}

	var buf bytes.Buffer
	if err := docsTemplate.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("render API docs: %w", err)
	}
	return buf.Bytes(), nil
}

func operationEntry(doc *openapi3.T, method, path string, item *openapi3.PathItem, op *openapi3.Operation) docsOp {
	o := docsOp{
		Anchor: "op-" + cmp.Or(op.OperationID, strings.ToLower(method)+path),
		Method: method, Path: path, Summary: op.Summary, Description: op.Description,
	}
	sec := doc.Security
	if op.Security != nil {
		sec = *op.Security
	}
	for _, req := range sec {
		o.Security = append(o.Security, strings.Join(sortedKeys(req), " + "))
	}
	for _, pr := range append(slices.Clone(item.Parameters), op.Parameters...) {
		if pr == nil || pr.Value == nil {
			continue
		}
		v := pr.Value
		o.Params = append(o.Params, docsParam{Name: v.Name, In: v.In, Description: v.Description, Required: v.Required, Type: typeOf(v.Schema)})
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		rb := op.RequestBody.Value
		o.BodyRequired = rb.Required
		o.Body = contentTypes(rb.Content)
	}
	if op.Responses != nil {
		codes := op.Responses.Keys()
		slices.Sort(codes)
		for _, code := range codes {
			r := op.Responses.Value(code)
			if r == nil || r.Value == nil {
				continue
			}
			o.Responses = append(o.Responses, docsResponse{Status: code, Description: web.Deref(r.Value.Description), Type: contentTypes(r.Value.Content)})
		}
	}
	return o
}

// contentTypes shows each media type with its schema.
func contentTypes(c openapi3.Content) template.HTML {
	var parts []string
	for _, mt := range sortedKeys(c) {
		s := template.HTMLEscapeString(mt)
		if c[mt].Schema != nil {
			s += " " + string(typeOf(c[mt].Schema))
		}
		parts = append(parts, s)
	}
	return template.HTML(strings.Join(parts, "<br>"))
}

func schemaEntry(name string, s *openapi3.Schema) docsSchema {
	d := docsSchema{Name: name, Description: s.Description, Type: typeOf(&openapi3.SchemaRef{Value: s})}
	for _, prop := range sortedProps(s) {
		ps := s.Properties[prop]
		desc := ""
		if ps.Value != nil {
			desc = ps.Value.Description
		}
		d.Props = append(d.Props, docsProp{Name: prop, Required: slices.Contains(s.Required, prop), Type: typeOf(ps), Description: desc})
	}
	return d
}

// sortedProps lists required properties first, each part alphabetically.
func sortedProps(s *openapi3.Schema) []string {
	names := sortedKeys(s.Properties)
	slices.SortStableFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(s.Required, a), slices.Contains(s.Required, b)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return names
}

// typeOf writes a schema's type briefly, linking named schemas.
func typeOf(ref *openapi3.SchemaRef) template.HTML {
	if ref == nil {
		return ""
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		n := template.HTMLEscapeString(name)
		return template.HTML(`<a href="#schema-` + n + `">` + n + `</a>`)
	}
	s := ref.Value
	if s == nil {
		return ""
	}
	var out string
	switch {
	case len(s.AllOf) > 0:
		var parts []string
		for _, sub := range s.AllOf {
			switch {
			case sub.Ref == "" && sub.Value != nil && sub.Value.Type == nil && len(sub.Value.Required) > 0:
				parts = append(parts, "required: "+template.HTMLEscapeString(strings.Join(sub.Value.Required, ", ")))
			default:
				if t := typeOf(sub); t != "" {
					parts = append(parts, string(t))
				}
			}
		}
		out = strings.Join(parts, " + ")
	case s.Type.Is("array"):
		out = "array of " + string(typeOf(s.Items))
	case s.Type.Is("object") && len(s.Properties) == 0:
		out = "object"
		if ap := s.AdditionalProperties.Schema; ap != nil {
			out = "map of " + string(typeOf(ap))
		}
	case s.Type == nil || len(s.Type.Slice()) == 0:
		out = "any JSON"
	default:
		out = template.HTMLEscapeString(strings.Join(s.Type.Slice(), " | "))
	}
	var notes []string
	if s.Format != "" {
		notes = append(notes, s.Format)
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprint(v)
		}
		notes = append(notes, "one of "+strings.Join(vals, ", "))
	}
	if s.Pattern != "" {
		notes = append(notes, "pattern "+s.Pattern)
	}
	if s.MaxLength != nil {
		notes = append(notes, "max length "+strconv.FormatUint(*s.MaxLength, 10))
	}
	if s.Min != nil {
		notes = append(notes, "min "+strconv.FormatFloat(*s.Min, 'f', -1, 64))
	}
	if s.Max != nil {
		notes = append(notes, "max "+strconv.FormatFloat(*s.Max, 'f', -1, 64))
	}
	if s.Nullable {
		notes = append(notes, "nullable")
	}
	if len(notes) > 0 {
		out += ` <span class="note">(` + template.HTMLEscapeString(strings.Join(notes, "; ")) + `)</span>`
	}
	return template.HTML(out)
}

var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

func methodRank(m string) int {
	if i := slices.Index(methodOrder, m); i >= 0 {
		return i
	}
	return len(methodOrder)
}

func sortedMethods(ops map[string]*openapi3.Operation) []string {
	ms := sortedKeys(ops)
	slices.SortStableFunc(ms, func(a, b string) int { return cmp.Compare(methodRank(a), methodRank(b)) })
	return ms
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

var docsTemplate = template.Must(template.New("docs").Funcs(template.FuncMap{
	"lower": strings.ToLower,
	"text":  text,
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} {{.Version}} — API reference</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2430;background:#f7f8fa}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{margin:0 0 4px}h2{margin-top:40px;border-bottom:2px solid #d8dde6;padding-bottom:4px}
a{color:#1a5fb4}a.back{display:inline-block;margin-bottom:8px}code,.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.desc p:first-child{margin-top:0}.desc ul,.desc ol{padding-left:22px}
nav ul{columns:2;padding-left:18px}
details.op{background:#fff;border:1px solid #d8dde6;border-radius:6px;margin:8px 0}
details.op>summary{cursor:pointer;padding:8px 12px;list-style:none;display:flex;gap:12px;align-items:baseline}
details.op>summary::-webkit-details-marker{display:none}
details.op[open]>summary{border-bottom:1px solid #d8dde6}
.body{padding:4px 16px 12px}
.m{display:inline-block;min-width:64px;text-align:center;font-weight:700;font-size:12px;border-radius:4px;padding:2px 6px;color:#fff}
.m-get{background:#2b7bb9}.m-post{background:#2f9e44}.m-put{background:#c27c0e}.m-patch{background:#8a5cc2}.m-delete{background:#c92a2a}
.sum{color:#55606e}
table{border-collapse:collapse;width:100%;margin:6px 0 12px;background:#fff}
th,td{border:1px solid #e1e5eb;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef1f5;font-weight:600}
.note{color:#6b7582;font-size:13px}
.req{color:#c92a2a;font-size:12px}
.schema{background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:8px 16px;margin:12px 0}
</style>
</head>
<body>
<main>
<a class="back" href="/">← Back to the panel</a>
<h1>{{.Title}}</h1>
<p class="note">Version {{.Version}} · the machine-readable document: <a href="/api/openapi.yaml">/api/openapi.yaml</a></p>
<div class="desc">{{text .Description}}</div>

<h2>Authentication</h2>
<table>
<tr><th>Scheme</th><th>Kind</th><th>Description</th></tr>
{{range .Security}}<tr><td><code>{{.Name}}</code></td><td>{{.Kind}}</td><td>{{text .Description}}</td></tr>
{{end}}</table>

<h2>Endpoints</h2>
<nav><ul>
{{range .Groups}}<li><a href="#tag-{{.Tag}}">{{.Tag}}</a> — {{.Description}}</li>
{{end}}<li><a href="#schemas">Schemas</a></li>
</ul></nav>

{{range .Groups}}
<h2 id="tag-{{.Tag}}">{{.Tag}}</h2>
{{if .Description}}<div class="desc">{{text .Description}}</div>{{end}}
{{range .Ops}}
<details class="op" id="{{.Anchor}}">
<summary><span class="m m-{{lower .Method}}">{{.Method}}</span><span class="path">{{.Path}}</span><span class="sum">{{.Summary}}</span></summary>
<div class="body">
{{if .Description}}<div class="desc">{{text .Description}}</div>{{end}}
<p><strong>Authentication:</strong> {{if .Security}}{{range $i, $s := .Security}}{{if $i}} or {{end}}<code>{{$s}}</code>{{end}}{{else}}none{{end}}</p>
{{if .Params}}<table>
<tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr>
{{range .Params}}<tr><td><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td>{{.In}}</td><td>{{.Type}}</td><td>{{text .Description}}</td></tr>
{{end}}</table>{{end}}
{{if .Body}}<p><strong>Request body</strong>{{if .BodyRequired}} <span class="req">required</span>{{end}}: {{.Body}}</p>{{end}}
<table>
<tr><th>Status</th><th>Meaning</th><th>Body</th></tr>
{{range .Responses}}<tr><td><code>{{.Status}}</code></td><td class="desc">{{text .Description}}</td><td>{{.Type}}</td></tr>
{{end}}</table>
</div>
</details>
{{end}}
{{end}}

<h2 id="schemas">Schemas</h2>
{{range .Schemas}}
<div class="schema" id="schema-{{.Name}}">
<h3>{{.Name}}</h3>
{{if .Description}}<div class="desc">{{text .Description}}</div>{{end}}
{{if .Props}}<table>
<tr><th>Field</th><th>Type</th><th>Description</th></tr>
{{range .Props}}<tr><td><code>{{.Name}}</code>{{if .Required}} <span class="req">required</span>{{end}}</td><td>{{.Type}}</td><td>{{text .Description}}</td></tr>
{{end}}</table>{{else}}<p>{{.Type}}</p>{{end}}
</div>
{{end}}
</main>
</body>
</html>
`))
