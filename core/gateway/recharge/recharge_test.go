package recharge_test

import (
	"testing"
	"time"

	"paygate/core/gateway/recharge"
	"paygate/core/platform/errs"
)

func TestCircles(t *testing.T) {
	if len(recharge.Circles) != 22 {
		t.Fatalf("%d circles, want India's 22", len(recharge.Circles))
	}
	seen := map[string]bool{}
	for _, c := range recharge.Circles {
		if seen[c.Code] {
			t.Fatalf("circle %s listed twice", c.Code)
		}
		seen[c.Code] = true
	}
	for _, code := range []string{"delhi", "mumbai", "kolkata", "chennai", "maharashtra", "karnataka"} {
		if !seen[code] {
			t.Fatalf("circle %s missing (the specification names it)", code)
		}
	}
}

func TestNew(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	ok := recharge.Request{Mobile: "9876543210", Operator: "Jio", Circle: "delhi", Amount: "239", ReferenceID: "order-77"}
	r, err := recharge.New(ok, 1, 2, now)
	if err != nil || r.Operator != "jio" || r.Status != recharge.StatusPending || r.Amount.String() != "239" {
		t.Fatalf("New = %+v, %v", r, err)
	}
	for name, tc := range map[string]struct {
		mut   func(*recharge.Request)
		field string
	}{
		"9 digits":        {func(r *recharge.Request) { r.Mobile = "987654321" }, "mobile"},
		"starts with 5":   {func(r *recharge.Request) { r.Mobile = "5876543210" }, "mobile"},
		"operator":        {func(r *recharge.Request) { r.Operator = "idea" }, "operator"},
		"circle":          {func(r *recharge.Request) { r.Circle = "london" }, "circle"},
		"below minimum":   {func(r *recharge.Request) { r.Amount = "9.99" }, "amount"},
		"above maximum":   {func(r *recharge.Request) { r.Amount = "10000.01" }, "amount"},
		"three decimals":  {func(r *recharge.Request) { r.Amount = "20.001" }, "amount"},
		"no reference":    {func(r *recharge.Request) { r.ReferenceID = "" }, "reference_id"},
		"reference space": {func(r *recharge.Request) { r.ReferenceID = "a b" }, "reference_id"},
	} {
		req := ok
		tc.mut(&req)
		_, err := recharge.New(req, 1, 2, now)
		e, isErr := errs.As(err)
		if !isErr || len(e.Fields[tc.field]) == 0 || len(e.Fields) != 1 {
			t.Errorf("%s: err %v, want one error on %s", name, err, tc.field)
		}
	}
	a, _ := recharge.New(ok, 1, 2, now)
	b := ok
	b.Amount = "239.00"
	same, _ := recharge.New(b, 1, 2, now)
	b.Mobile = "9876543211"
	other, _ := recharge.New(b, 1, 2, now)
	if !a.Same(same) || a.Same(other) {
		t.Fatal("Same: a retry with 239.00 is the same recharge; another number is not")
	}
}

func TestBackoffDoublesUpToAnHour(t *testing.T) {
	for attempts, want := range map[int]time.Duration{
		0: 15 * time.Second, 1: 15 * time.Second, 2: 30 * time.Second, 3: time.Minute, 5: 4 * time.Minute,
		8: 32 * time.Minute, 9: time.Hour, 10: time.Hour, 1000: time.Hour,
	} {
		if got := recharge.Backoff(attempts); got != want {
			t.Errorf("Backoff(%d) = %v, want %v", attempts, got, want)
		}
	}
}

func TestClaimSchedulesAndFlagsAfter48Hours(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := recharge.Recharge{ID: 7, Status: recharge.StatusPending, CreatedAt: created, Attempts: 2}
	for _, tc := range []struct {
		after time.Duration
		flag  bool
	}{{47*time.Hour + 59*time.Minute, false}, {48 * time.Hour, true}} {
		now := created.Add(tc.after)
		n := r.Claim(now)
		if n.Attempts != 3 || !n.NextCheckAt.Equal(now.Add(time.Minute)) || n.NeedsReconciliation() != tc.flag || r.Attempts != 2 {
			t.Errorf("after %v: %+v", tc.after, n)
		}
	}
	at := created.Add(50 * time.Hour)
	r.ReconcileAt = &at
	if n := r.Claim(created.Add(60 * time.Hour)); !n.ReconcileAt.Equal(at) {
		t.Errorf("flag moved: %v", n.ReconcileAt)
	}
	if r.ProviderReference() != "rch_7" {
		t.Errorf("reference %q", r.ProviderReference())
	}
}
