package ledger

import (
	"crypto/rand"
	"errors"
	"math/big"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestApply(t *testing.T) {
	cases := []struct {
		before string
		typ    Type
		amount string
		want   string
		err    error
	}{
		{"10.00", Credit, "0.10", "10.10", nil},
		{"10.00", Refund, "2.50", "12.50", nil},
		{"10.00", Debit, "10.00", "0.00", nil},
		{"10.00", Debit, "10.01", "10.00", ErrInsufficientBalance},
		{"10.00", Debit, "0", "10.00", ErrInvalidAmount},
		{"10.00", Credit, "-1", "10.00", ErrInvalidAmount},
	}
	for _, c := range cases {
		got, err := Apply(d(c.before), c.typ, d(c.amount))
		if !errors.Is(err, c.err) || !got.Equal(d(c.want)) {
			t.Errorf("Apply(%s %s %s) = %s, %v", c.before, c.typ, c.amount, got, err)
		}
	}
	// 0.10 + 0.20 is exact in decimal.
	b, _ := Apply(d("0.10"), Credit, d("0.20"))
	if !b.Equal(d("0.30")) {
		t.Fatalf("0.10+0.20 = %s", b)
	}
}

func TestTxnIDFormatUniqueAndSorted(t *testing.T) {
	re := regexp.MustCompile(`^TXN[0-9]{39}$`)
	seen := map[string]bool{}
	var ids []string
	base := time.Unix(1_800_000_000, 0)
	for i := 0; i < 1000; i++ {
		id := NewTxnID(base.Add(time.Duration(i) * time.Millisecond))
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("txn ids do not sort by time")
	}
}

func TestTxnIDIsTheULIDInDecimal(t *testing.T) {
	ids := []ulid.ULID{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
	for i := 0; i < 2000; i++ {
		ids = append(ids, ulid.MustNew(ulid.Timestamp(time.Now()), rand.Reader))
		var id ulid.ULID
		rand.Read(id[:])
		ids = append(ids, id)
	}
	for _, id := range ids {
		want := new(big.Int).SetBytes(id[:]).String()
		want = "TXN" + strings.Repeat("0", 39-len(want)) + want
		if got := txnIDOf(id); got != want {
			t.Fatalf("txnIDOf(%x) = %s, want %s", id[:], got, want)
		}
	}
}
