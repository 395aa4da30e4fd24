package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestLedgerCheckVerdict runs stand-in servers: exit 0 is a pass, any
// other exit status a failure with its output kept.
func TestLedgerCheckVerdict(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := script("good", `[ "$1 $2" = "ledger check" ] && [ "$DATABASE_URL" = "sqlite://x" ] && echo "0 discrepancies"`)
	bad := script("bad", `echo "user 7: balance 10.00, ledger says 9.99"; exit 1`)

	out, ok, err := ledgerCheck(context.Background(), good, []string{"DATABASE_URL=sqlite://x"})
	if err != nil || !ok || out != "0 discrepancies\n" {
		t.Fatalf("good: %q %v %v", out, ok, err)
	}
	out, ok, err = ledgerCheck(context.Background(), bad, nil)
	if err != nil || ok || out == "" {
		t.Fatalf("bad: %q %v %v", out, ok, err)
	}
	if _, _, err := ledgerCheck(context.Background(), filepath.Join(dir, "missing"), nil); err == nil {
		t.Fatal("missing binary: no error")
	}
}
