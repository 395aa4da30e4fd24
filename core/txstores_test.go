package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// passesStores are the functions that may take all of store.Stores: the
// picks of a use case's sets from the store's (TxStoresOf, and the
// StoresOf of the ports it calls outside a transaction), metering's
// invalidating wrapper, and transactors that hand their transactions on
// (WithinTx, WithinBatchTx). Every other function, a transaction step or a
// helper one calls, takes its package's TxStores or what it uses.
var passesStores = map[string]bool{
	"TxStoresOf": true, "StoresOf": true, "readsOf": true, "invalidating": true,
	"WithinTx": true, "WithinBatchTx": true,
}

// TestStepsGetTheirRepositories fails on a function under core/ (tests
// aside) with a parameter of type store.Stores, at any depth of function
// literals, outside passesStores and the wiring (core/app) and the unit of
// work itself (core/platform/store).
func TestStepsGetTheirRepositories(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
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
		pkg := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || pkg == "app" || unitOfWork(pkg) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		storeName := ""
		for _, imp := range f.Imports {
			if ip, _ := strconv.Unquote(imp.Path.Value); ip == "paygate/core/platform/store" {
				storeName = "store"
				if imp.Name != nil {
					storeName = imp.Name.Name
				}
			}
		}
		if storeName == "" {
			return nil
		}
		checked++
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || passesStores[fn.Name.Name] {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				ft, ok := n.(*ast.FuncType)
				if !ok || ft.Params == nil {
					return true
				}
				for _, p := range ft.Params.List {
					if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Stores" {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == storeName {
							t.Errorf("%s: %s takes all of store.Stores; give it its package's TxStores (or the repositories it uses)",
								fset.Position(p.Pos()), fn.Name.Name)
						}
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no file under core/ imports the store: the test checked nothing")
	}
}
