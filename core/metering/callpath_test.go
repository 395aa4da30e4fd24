package metering

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// meteredPath are the files of a metered call in the order
// docs/architecture.md ("A metered call, file by file") reads them: each
// calls only into files after it. metering.go (the use case's type and
// its wiring) and the files off the call's path are not in it.
var meteredPath = []string{
	"call.go", "prepare.go", "upstream.go", "holds.go", "quota.go",
	"writer.go", "batch.go", "statements.go", "admission.go",
}

// TestMeteredPathCallsOnlyDown: no function of a file of meteredPath
// calls a function or method declared in a file before it, so the call
// reads top to bottom. Calls are resolved by go/types; calls through
// function values (callbacks such as a queued write's after, a
// transaction's function) are not calls here.
func TestMeteredPathCallsOnlyDown(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	parsed := map[string]*ast.File{}
	var all []*ast.File
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[f] = af
		all = append(all, af)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("paygate/core/metering", fset, all, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range meteredPath {
		if parsed[f] == nil {
			t.Fatalf("%s is in meteredPath but not in the package", f)
		}
	}
	calls := 0
	for i, f := range meteredPath {
		ast.Inspect(parsed[f], func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var id *ast.Ident
			switch fn := ce.Fun.(type) {
			case *ast.Ident:
				id = fn
			case *ast.SelectorExpr:
				id = fn.Sel
			default:
				return true
			}
			obj, ok := info.Uses[id].(*types.Func)
			if !ok || obj.Pkg() != pkg {
				return true
			}
			name, at := id.Name, filepath.Base(fset.Position(obj.Pos()).Filename)
			calls++
			if j := slices.Index(meteredPath, at); j >= 0 && j < i {
				t.Errorf("%s: %s calls %s, declared above it in %s", fset.Position(ce.Pos()), f, name, at)
			}
			return true
		})
	}
	if calls < 50 {
		t.Fatalf("resolved only %d calls: the walk is broken", calls)
	}
}
