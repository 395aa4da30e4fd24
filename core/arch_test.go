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
