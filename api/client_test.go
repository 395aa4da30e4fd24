package api_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paygate/api"
)

// oapiCodegen is the generator integrators are likeliest to use for Go,
// pinned: `go run` fetches this exact version (like staticcheck in the Makefile).
const oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"

// clientModule pins what the generated code imports, so the compile does
// not move with new releases.
const clientModule = `module example.com/paygateclient

go 1.26

require (
	github.com/oapi-codegen/runtime v1.9.0
	go.yaml.in/yaml/v3 v3.0.6
)
`

// anyJSONFloat: the only float types allowed in the generated client, the
// number branch of "any JSON value" (a hit's payloads, a call's data), which
// carry the upstream's JSON and never a price, a balance or a charge.
var anyJSONFloat = regexp.MustCompile(`^(CallEnvelopeData|HitLogRequestPayload|HitLogResponsePayload)[0-9]+$`)

// TestGeneratedGoClientCompiles generates a Go client (types and client)
// from api/openapi.yaml with oapi-codegen into a temporary module and builds
// it, then checks that no generated type carries money as a float.
func TestGeneratedGoClientCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generating and compiling the client takes ~10 s")
	}
	dir := t.TempDir()
	gen := filepath.Join(dir, "client.gen.go")
	run(t, ".", "go", "run", oapiCodegen, "-generate", "types,client", "-package", "paygateclient", "-o", gen, "openapi.yaml")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(clientModule), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "go", "mod", "tidy")
	run(t, dir, "go", "build", "./...")

	floats := floatTypes(t, gen)
	if len(floats) == 0 {
		t.Fatal("no float type at all: the any-JSON number branches moved; update anyJSONFloat")
	}
	for _, name := range floats {
		if !anyJSONFloat.MatchString(strings.SplitN(name, ".", 2)[0]) {
			t.Errorf("the generated client uses floating point for %s: document money as a decimal string with a pattern", name)
		}
	}
}

// run runs a go command in dir, outside any workspace, failing with its output.
func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// floatTypes lists the generated declarations ("Type" or "Type.Field")
// whose type mentions float32 or float64.
func floatTypes(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, field := range st.Fields.List {
					if mentionsFloat(field.Type) {
						for _, n := range field.Names {
							out = append(out, ts.Name.Name+"."+n.Name)
						}
					}
				}
				continue
			}
			if mentionsFloat(ts.Type) {
				out = append(out, ts.Name.Name)
			}
		}
	}
	return out
}

func mentionsFloat(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (id.Name == "float32" || id.Name == "float64") {
			found = true
		}
		return !found
	})
	return found
}

// moneyName: properties that hold money (amounts, balances, fees, prices,
// charges, margins, limits in rupees); integer ones (counts, daily call
// limits) are not money and are skipped.
var moneyName = regexp.MustCompile(`(^|_)(amount|balance|balance_before|balance_after|fee|price|cost|charged|charge_amount|spent|margin|revenue|total|limit|alert|balance_left)$`)

// TestMoneyIsADecimalStringWithAPattern walks every schema of the document
// (components, parameters, request and response bodies): a money property
// is a string with a pattern, directly or through allOf/$ref, never a number.
func TestMoneyIsADecimalStringWithAPattern(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[*openapi3.Schema]bool{}
	checked := 0
	var walk func(where string, s *openapi3.Schema)
	walk = func(where string, s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			p := s.Properties[name].Value
			if moneyName.MatchString(name) && !p.Type.Is("integer") && !p.Type.Is("boolean") {
				checked++
				if !decimalString(p) {
					t.Errorf("%s.%s is money but not a decimal string with a pattern (type %v)", where, name, p.Type)
				}
			}
			walk(where+"."+name, p)
		}
		for _, list := range [][]*openapi3.SchemaRef{s.AllOf, s.AnyOf, s.OneOf} {
			for _, r := range list {
				walk(where, r.Value)
			}
		}
		if s.Items != nil {
			walk(where+"[]", s.Items.Value)
		}
	}
	for name, r := range doc.Components.Schemas {
		walk(name, r.Value)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walk(where+" body", mt.Schema.Value)
				}
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for _, mt := range resp.Value.Content {
					walk(where+" response", mt.Schema.Value)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d money properties found: the walk lost its way", checked)
	}
}

// decimalString: type string with a pattern, here or in every allOf part.
func decimalString(s *openapi3.Schema) bool {
	if s.Type.Is("string") {
		return s.Pattern != ""
	}
	if s.Type != nil || len(s.AllOf) == 0 || len(s.AnyOf)+len(s.OneOf) > 0 {
		return false
	}
	for _, r := range s.AllOf {
		if !decimalString(r.Value) {
			return false
		}
	}
	return true
}
