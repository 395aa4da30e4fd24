package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxPortMethods is the most methods an interface declared under core/ may
// have. Ports are declared by the use case that calls them and say only
// what it calls (style rule 1); a domain repository serves several use
// cases and is the largest (webhook.Repository, 14 today). A port that
// grows past this is a sign two use cases share one it should not.
const maxPortMethods = 15

// port is one interface declared under core/.
type port struct {
	name    string // package folder and type, "core/accounts/keys.Repository"
	methods int    // methods declared, plus one per embedded interface
}

// portsIn returns the interfaces declared in one parsed file.
func portsIn(f *ast.File, pkg string) []port {
	var ports []port
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		it, ok := ts.Type.(*ast.InterfaceType)
		if !ok {
			return true
		}
		p := port{name: pkg + "." + ts.Name.Name}
		for _, m := range it.Methods.List {
			if len(m.Names) == 0 { // embedded: its methods are counted where it is declared
				p.methods++
				continue
			}
			p.methods += len(m.Names)
		}
		ports = append(ports, p)
		return true
	})
	return ports
}

func TestPortsIn(t *testing.T) {
	src := `package p
type A interface { X(); Y() int }
type B interface { A; Z() }
type C = A
type D struct{ a A }
func f() { type local interface{ W() } }`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := portsIn(f, "p")
	want := []port{{"p.A", 2}, {"p.B", 2}, {"p.local", 1}}
	if len(got) != len(want) {
		t.Fatalf("ports = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("port %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// TestPortsStaySmall: no interface declared under core/ (mocks and the
// store fake aside) has more than maxPortMethods methods. -v lists the
// largest.
func TestPortsStaySmall(t *testing.T) {
	var ports []port
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "mocks" || d.Name() == "storetest" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ports = append(ports, portsIn(f, filepath.ToSlash(filepath.Join("core", filepath.Dir(path))))...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(ports) < 100 {
		t.Fatalf("found %d interfaces under core/; the walk missed the packages", len(ports))
	}
	sort.Slice(ports, func(i, j int) bool { return ports[i].methods > ports[j].methods })
	total := 0
	for _, p := range ports {
		total += p.methods
		if p.methods > maxPortMethods {
			t.Errorf("%s has %d methods, more than %d: split it by the use cases that call it", p.name, p.methods, maxPortMethods)
		}
	}
	t.Logf("%d interfaces, %d methods, %.1f per interface; the largest:", len(ports), total, float64(total)/float64(len(ports)))
	for _, p := range ports[:10] {
		t.Logf("  %3d %s", p.methods, p.name)
	}
}
