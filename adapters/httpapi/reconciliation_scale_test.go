package httpapi_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// TestReconciliationImports100000Lines: a statement of 100,000 credit lines
// (Indian grouping, quoted narrations) imports through the real server in a
// few seconds, and importing it again records nothing. The figures are
// logged (go test -v -run TestReconciliationImports100000Lines) and go to
// docs/benchmarks.md. Under the race detector (make test) the same checks
// run on 10,000 lines, without the time budget: it is many times slower.
func TestReconciliationImports100000Lines(t *testing.T) {
	if testing.Short() {
		t.Skip("large import")
	}
	n := 100000
	if raceEnabled {
		n = 10000
	}
	var f bytes.Buffer
	f.WriteString("Date,Narration,Ref No,Debit,Credit,Balance\n")
	for i := range n {
		fmt.Fprintf(&f, "%02d/04/2024,\"UPI/%012d/PAYER %d, ORDER\",%012d,,\"1,%02d,%03d.00\",\n", i%28+1, 400000000000+i, i, 400000000000+i, i%100, i%1000)
	}
	f.WriteString("Total,,,,,\n")
	each(t, func(t *testing.T, e *env) {
		start := time.Now()
		r := e.must(e.importStatement(e.admin, "big.csv", f.Bytes(), nil), 201)
		first := time.Since(start)
		if r.body["new_lines"] != float64(n) || r.body["skipped_lines"] != 1.0 {
			t.Fatalf("import: %s", r.raw)
		}
		start = time.Now()
		r = e.must(e.importStatement(e.admin, "big.csv", f.Bytes(), nil), 201)
		again := time.Since(start)
		if r.body["new_lines"] != 0.0 || r.body["duplicate_lines"] != float64(n) {
			t.Fatalf("re-import: %s", r.raw)
		}
		t.Logf("%d lines (%d KB): first import %v, re-import %v", n, f.Len()>>10, first.Round(time.Millisecond), again.Round(time.Millisecond))
	})
}
