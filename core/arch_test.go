// Package core_test guards the hexagon: nothing under core/ may import the
// web framework, the ORM, the JWT or validator libraries, database drivers,
// or the project's own adapters and commands. Those belong outside the core,
// which talks to them only through ports it declares.
package core_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports are import path prefixes the core must not use. A prefix
// matches the path itself and everything below it ("gorm.io" matches
// "gorm.io/gorm"), never a longer sibling ("paygate/adaptersx").
var forbiddenImports = []string{
	"github.com/labstack/echo",
	"gorm.io",
	"github.com/golang-jwt",
	"github.com/go-playground/validator",
	"github.com/go-sql-driver/mysql",
	"modernc.org/sqlite",
	"github.com/pressly/goose",
	"paygate/adapters",
	"paygate/cmd",
}

func forbidden(importPath string) (string, bool) {
	for _, p := range forbiddenImports {
		p = strings.TrimSuffix(p, "/")
		if importPath == p || strings.HasPrefix(importPath, p+"/") {
			return p, true
		}
		// Major-version suffixes and similar: "github.com/labstack/echo/v4"
		// is covered above; "github.com/labstack/echo-contrib" is not the
		// framework itself but still has no place in the core.
		if strings.HasPrefix(importPath, p+"-") {
			return p, true
		}
	}
	return "", false
}

func TestForbiddenMatcher(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"github.com/labstack/echo/v4", true},
		{"github.com/labstack/echo-contrib/echoprometheus", true},
		{"gorm.io/gorm", true},
		{"gorm.io/driver/mysql", true},
		{"github.com/golang-jwt/jwt/v5", true},
		{"github.com/go-playground/validator/v10", true},
		{"paygate/adapters/httpapi", true},
		{"paygate/adapters", true},
		{"paygate/cmd/server", true},
		{"paygate/core/user", false},
		{"paygate/adaptersx", false},
		{"github.com/shopspring/decimal", false},
		{"net/http", false},
		{"context", false},
	}
	for _, c := range cases {
		if _, got := forbidden(c.path); got != c.want {
			t.Errorf("forbidden(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// TestCoreImportsStayInsideTheHexagon parses every .go file under core/
// (tests included, generated mocks excluded: they import testify, which is
// fine for test doubles) and fails on any forbidden import.
func TestCoreImportsStayInsideTheHexagon(t *testing.T) {
	// go test runs in the package's directory, which is core/.
	root := "."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "mocks", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if prefix, bad := forbidden(ip); bad {
				t.Errorf("%s imports %q (%s… is not allowed in core/; declare a port and implement it in adapters/)",
					filepath.Join("core", path), ip, prefix)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk core/: %v", err)
	}
	if checked == 0 {
		t.Fatal("no .go files found under core/: the architecture test checked nothing")
	}
	t.Logf("checked imports of %d files under core/", checked)
}

// areas are core/'s top-level folders, lowest first (each root's package
// doc says what lives there). A package's area is its first folder.
//
// A package is a use case when it runs in the unit of work (it imports
// core/platform/store), imports a use case, or wires the others
// (core/app); every other package is a domain package: records, rules and
// ports, which the store imports, so a domain package can never import a use case.
//
// The one direction (TestAreasImportInOneDirection):
//   - a domain package imports domain packages of its own area and of
//     areas before it;
//   - a use case imports use cases of its own area and of areas before it,
//     and any area's domain packages (it reads and writes their records
//     through the store);
//   - core/platform/store, the unit of work, names every area's
//     repositories, and its in-memory fake implements them all.
var areas = []string{"platform", "accounts", "events", "metering", "gateway", "money", "billing", "catalog", "resale", "app"}

// unitOfWork is exempt from the direction: it names what every area stores.
func unitOfWork(pkg string) bool {
	return pkg == "platform/store" || strings.HasPrefix(pkg, "platform/store/")
}

type corePkg struct {
	area    string
	useCase bool
	imports map[string][]string // core package -> files (non-test) importing it
}

// corePackages parses the non-test files of every package under core/.
func corePackages(t *testing.T) map[string]*corePkg {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string]*corePkg{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "mocks" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		p := pkgs[pkg]
		if p == nil {
			p = &corePkg{area: strings.SplitN(pkg, "/", 2)[0], useCase: pkg == "app", imports: map[string][]string{}}
			pkgs[pkg] = p
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if other, ok := strings.CutPrefix(ip, "paygate/core/"); ok {
				p.imports[other] = append(p.imports[other], path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A use case imports the store, or a use case (the panel's share
	// core/accounts/panel's ports); a domain package can do neither.
	for changed := true; changed; {
		changed = false
		for name, p := range pkgs {
			for other := range p.imports {
				if !p.useCase && (other == "platform/store" || pkgs[other] != nil && pkgs[other].useCase) && !unitOfWork(name) {
					p.useCase, changed = true, true
				}
			}
		}
	}
	if len(pkgs) == 0 {
		t.Fatal("no packages found under core/")
	}
	return pkgs
}

// TestCoreIsItsAreas: core/ holds only the listed areas (at most 12), each
// with a package doc at its root, and nothing but tests at core/ itself.
func TestCoreIsItsAreas(t *testing.T) {
	if len(areas) > 12 {
		t.Errorf("%d areas; at most 12", len(areas))
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
				t.Errorf("core/%s: code belongs in an area", e.Name())
			}
			continue
		}
		if !slices.Contains(areas, e.Name()) {
			t.Errorf("core/%s is not an area (areas: %v)", e.Name(), areas)
		}
	}
	fset := token.NewFileSet()
	for _, a := range areas {
		files, _ := filepath.Glob(filepath.Join(a, "*.go"))
		documented := false
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name+" ") {
				documented = true
			}
		}
		if !documented {
			t.Errorf("core/%s has no package doc at its root", a)
		}
	}
}

// TestAreasImportInOneDirection enforces the direction above.
func TestAreasImportInOneDirection(t *testing.T) {
	rank := map[string]int{}
	for i, a := range areas {
		rank[a] = i
	}
	pkgs := corePackages(t)
	useCases := 0
	for name, p := range pkgs {
		if _, ok := rank[p.area]; !ok {
			t.Errorf("core/%s: area %q is not listed", name, p.area)
			continue
		}
		if p.useCase {
			useCases++
		}
		if unitOfWork(name) {
			continue
		}
		for other, files := range p.imports {
			q := pkgs[other]
			if q == nil || unitOfWork(other) {
				continue
			}
			kind := map[bool]string{true: "use case", false: "domain package"}
			if q.area != p.area && (q.useCase || !p.useCase) && rank[q.area] > rank[p.area] {
				t.Errorf("%v: the %s core/%s (area %s) imports the %s core/%s of a later area (%s); areas run %v",
					files, kind[p.useCase], name, p.area, kind[q.useCase], other, q.area, areas)
			}
		}
	}
	if useCases == 0 {
		t.Fatal("no use cases found: the classification checked nothing")
	}
}

// TestStoreFakesOnlyInTests: the in-memory store (core/platform/store/storetest) is
// a test double; no production file may import it.
func TestStoreFakesOnlyInTests(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.HasPrefix(filepath.ToSlash(path), "platform/store/storetest/") ||
			strings.HasPrefix(filepath.ToSlash(path), "platform/store/storecontract/") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if ip, _ := strconv.Unquote(imp.Path.Value); ip == "paygate/core/platform/store/storetest" || ip == "paygate/core/platform/store/storecontract" {
				t.Errorf("core/%s imports the store fakes outside a test", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// panelUseCaseUsers are the packages outside core/ that may import the
// panel's use cases (the core packages that import core/accounts/panel):
// the HTTP adapter, which calls them through app.App and names their
// inputs, and the server command, which runs some of them from the command
// line. Every other adapter reaches them only through app.App, and
// imports at most core/accounts/panel's ports. A user's packages below it
// count as it (adapters/httpapi/accounts is the HTTP adapter too).
var panelUseCaseUsers = []string{"adapters/httpapi", "cmd/server"}

// mayUsePanel: dir is one of panelUseCaseUsers or below one.
func mayUsePanel(dir string) bool {
	return slices.ContainsFunc(panelUseCaseUsers, func(u string) bool { return dir == u || strings.HasPrefix(dir, u+"/") })
}

// TestPanelUseCasesOnlyBehindTheHTTPAdapter fails when an adapter or
// command other than panelUseCaseUsers imports a panel use case.
func TestPanelUseCasesOnlyBehindTheHTTPAdapter(t *testing.T) {
	panelUseCases := map[string]bool{}
	for name, p := range corePackages(t) {
		if _, ok := p.imports["accounts/panel"]; ok && name != "app" {
			panelUseCases["paygate/core/"+name] = true
		}
	}
	if len(panelUseCases) == 0 {
		t.Fatal("no panel use cases found")
	}
	fset := token.NewFileSet()
	checked := 0
	for _, root := range []string{"../adapters", "../cmd", "../internal"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			checked++
			dir := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(path)), "../")
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if panelUseCases[ip] && !mayUsePanel(dir) {
					t.Errorf("%s imports %s: only %v may import the panel's use cases (others go through app.App)", path, ip, panelUseCaseUsers)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no adapter or command files found")
	}
}
