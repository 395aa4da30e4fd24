package docscheck_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAuditLogFiltersOfferEveryAction: every action named in core/accounts/audit
// (a string constant of the form area.verb) is offered by the admin audit
// log's action filter (frontend/src/pages/admin/AuditLog.tsx), so a new
// action cannot be recorded without being findable in the panel.
func TestAuditLogFiltersOfferEveryAction(t *testing.T) {
	root := repoRoot(t)
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "core", "accounts", "audit", "audit.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, "frontend", "src", "pages", "admin", "AuditLog.tsx"))
	if err != nil {
		t.Fatal(err)
	}
	actions := 0
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil || !strings.Contains(v, ".") || strings.ContainsAny(v, " /") {
			return true
		}
		actions++
		if !strings.Contains(string(page), "'"+v+"'") {
			t.Errorf("audit action %q (core/accounts/audit) is not in AuditLog.tsx's ACTIONS", v)
		}
		return true
	})
	if actions < 20 {
		t.Fatalf("found only %d actions in core/accounts/audit/audit.go: has the file changed shape?", actions)
	}
}
