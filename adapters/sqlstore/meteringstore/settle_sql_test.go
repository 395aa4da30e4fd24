package meteringstore

import (
	"strings"
	"testing"
)

func TestPerHitWritesEachColumnTheCheapestWay(t *testing.T) {
	body := func(s string) *string { return &s }
	cases := []struct {
		name     string
		ids      []uint64
		vals     []any
		wantSQL  string
		wantArgs []any
	}{
		{"same value: one parameter", []uint64{5, 6, 9}, []any{"0.5000", "0.5000", "0.5000"},
			"c = ?", []any{"0.5000"}},
		{"same text behind different pointers", []uint64{5, 6}, []any{body("x"), body("x")},
			"c = ?", nil}, // args checked by length below
		{"dense ids: ELT by position, NULL in the gap", []uint64{11, 13, 12, 15}, []any{1, 3, 2, 5},
			"c = ELT(id - ?,?,?,?,?,?)", []any{uint64(10), 1, 2, 3, nil, 5}},
		{"sparse ids: CASE on the id as a signed integer", []uint64{1, 100}, []any{"a", "b"},
			"c = CASE CAST(id AS SIGNED) WHEN ? THEN ? WHEN ? THEN ? END", []any{int64(1), "a", int64(100), "b"}},
		{"nil and text differ", []uint64{1, 2}, []any{(*string)(nil), body("")},
			"c = ELT(id - ?,?,?)", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var q strings.Builder
			args := newPerHit(c.ids).set(&q, nil, "c", c.vals)
			if q.String() != c.wantSQL {
				t.Fatalf("SQL %q, want %q", q.String(), c.wantSQL)
			}
			if c.wantArgs == nil {
				if n := strings.Count(c.wantSQL, "?"); len(args) != n {
					t.Fatalf("%d args for %d placeholders", len(args), n)
				}
				return
			}
			if len(args) != len(c.wantArgs) {
				t.Fatalf("args %v, want %v", args, c.wantArgs)
			}
			for i := range args {
				if args[i] != c.wantArgs[i] {
					t.Fatalf("args %v, want %v", args, c.wantArgs)
				}
			}
		})
	}
}
