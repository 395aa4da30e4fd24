// Package core_test guards the hexagon: nothing under core/ may import the
// web framework, the ORM, the JWT or validator libraries, database drivers,
// or the project's own adapters and commands. Those belong outside the core,
// which talks to them only through ports it declares.
package core_test

import (
	"go/parser"
	"go/token"
	"io/fs"
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

// useCaseImports is which use-case packages each may import: app wires
// them all; the gateway bills through metering; the panel's use cases
// (core/panel/*) share only core/panel (ports and small helpers), which
// imports none of them; the rest stand alone on the domains and core/store.
// A package missing here imports none of them.
var useCaseImports = map[string][]string{
	"app": {"metering", "gateway", "outbox", "ledgercheck", "reconciliation", "billing", "invoicing", "taxsettings",
		"retention", "panel", "panel/accounts", "panel/keys", "panel/topups", "panel/catalogadmin", "panel/history",
		"panel/auditlog", "panel/brands", "panel/customers", "panel/selling", "commission"},
	"gateway":            {"metering"},
	"metering":           {},
	"panel":              {},
	"panel/accounts":     {"panel"},
	"panel/keys":         {"panel"},
	"panel/topups":       {"panel"},
	"panel/catalogadmin": {"panel"},
	"panel/history":      {"panel"},
	"panel/auditlog":     {"panel"},
	"panel/brands":       {"panel"},
	"panel/customers":    {"panel"},
	"panel/selling":      {"panel"},
	"outbox":             {},
	"ledgercheck":        {},
	// reconciliation completes payments and approves balance requests
	// through ports the gateway and the panel's topups implement.
	"reconciliation": {},
	"billing":        {},
	"invoicing":      {},
	"taxsettings":    {},
	"retention":      {},
	"commission":     {},
}

// TestUseCasePackagesImportInOneDirection fails when a use-case package
// imports another it may not (a cycle in the making, or one use case
// reaching into another's internals instead of taking a port).
func TestUseCasePackagesImportInOneDirection(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for pkg, allowed := range useCaseImports {
		files, _ := filepath.Glob(filepath.Join(pkg, "*.go"))
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				other, ok := strings.CutPrefix(ip, "paygate/core/")
				if _, isUseCase := useCaseImports[other]; !ok || !isUseCase || other == pkg {
					continue
				}
				if strings.HasSuffix(path, "_test.go") && f.Name.Name == filepath.Base(pkg)+"_test" && other != "app" {
					continue // an external test may wire its package on another, as the server does
				}
				if !slices.Contains(allowed, other) {
					t.Errorf("core/%s imports core/%s: not in useCaseImports[%q]", path, other, pkg)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no use-case package files found")
	}
	// A package missing from useCaseImports imports none of them.
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if _, listed := useCaseImports[pkg]; listed || strings.HasSuffix(pkg, "/mocks") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if other, ok := strings.CutPrefix(ip, "paygate/core/"); ok {
				if _, isUseCase := useCaseImports[other]; isUseCase {
					t.Errorf("core/%s imports the use case core/%s: list core/%s in useCaseImports", path, other, pkg)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestStoreFakesOnlyInTests: the in-memory store (core/store/storetest) is
// a test double; no production file may import it.
func TestStoreFakesOnlyInTests(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.HasPrefix(filepath.ToSlash(path), "store/storetest/") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if ip, _ := strconv.Unquote(imp.Path.Value); ip == "paygate/core/store/storetest" {
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
// panel's use-case packages (core/panel/*): the HTTP adapter, which calls
// them through app.App and names their inputs. Every other adapter and
// command reaches them only through app.App, and imports at most
// core/panel's ports.
var panelUseCaseUsers = []string{"adapters/httpapi"}

// TestPanelUseCasesOnlyBehindTheHTTPAdapter fails when an adapter or
// command other than panelUseCaseUsers imports a core/panel subpackage.
func TestPanelUseCasesOnlyBehindTheHTTPAdapter(t *testing.T) {
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
				if sub, ok := strings.CutPrefix(ip, "paygate/core/panel/"); ok && sub != "mocks" && !slices.Contains(panelUseCaseUsers, dir) {
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
