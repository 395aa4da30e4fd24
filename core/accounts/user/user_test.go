package user

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPlanCounting(t *testing.T) {
	u := &User{Plan: PlanStarter, MonthlyCalls: Allowance(StarterMonthlyCalls)}
	for i := 0; i < StarterMonthlyCalls; i++ {
		if !u.PlanAllows("2026-11") {
			t.Fatalf("call %d refused", i+1)
		}
		u.CountPlanCall("2026-11")
	}
	if u.PlanAllows("2026-11") {
		t.Fatal("call 101 allowed on Starter")
	}
	u.UncountPlanCall("2026-11")
	if !u.PlanAllows("2026-11") {
		t.Fatal("a refunded call must give its count back")
	}
	if !u.PlanAllows("2026-12") {
		t.Fatal("a new month starts from zero")
	}
	u.CountPlanCall("2026-12")
	if u.PlanCalls != 1 || u.PlanMonth != "2026-12" {
		t.Fatalf("new month count %d %s", u.PlanCalls, u.PlanMonth)
	}
	ent := &User{Plan: PlanEnterprise, PlanMonth: "2026-11", PlanCalls: 10_000}
	if !ent.PlanAllows("2026-11") {
		t.Fatal("enterprise is unlimited")
	}
	// The allowance is the plan's, whatever its code.
	pro := &User{Plan: PlanEnterprise, MonthlyCalls: Allowance(2), PlanMonth: "2026-11", PlanCalls: 2}
	if pro.PlanAllows("2026-11") || !pro.PlanAllows("2026-12") || !pro.PlanLimited() {
		t.Fatal("a plan of 2 calls allows 2 a month")
	}
	if (&User{MonthlyCalls: Allowance(0)}).PlanAllows("2026-12") {
		t.Fatal("an allowance of 0 allows no call")
	}
}

func TestCanAct(t *testing.T) {
	now := time.Now()
	if err := (&User{Status: StatusActive}).CanAct(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		status  Status
		message string
	}{
		{StatusBlocked, "account_not_active: Account is not active"},
		{StatusPending, "account_not_active: Your account is waiting for an administrator's approval; we will email you as soon as it is active"},
	} {
		err := (&User{Status: tc.status}).CanAct()
		if !errors.Is(err, ErrNotActive) || err.Error() != tc.message {
			t.Fatalf("%s: %v", tc.status, err)
		}
	}
	if err := (&User{Status: StatusActive, DeletedAt: &now}).CanAct(); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("deleted: %v", err)
	}
}

func TestProfileValidate(t *testing.T) {
	p := Profile{Name: " Asha ", Email: " Asha@Example.COM ", Phone: "9876543210", Password: "longenough"}
	if err := p.Validate(true); err != nil || p.Email != "asha@example.com" || p.Name != "Asha" {
		t.Fatalf("%v %+v", err, p)
	}
	bad := []Profile{
		{Name: "", Email: "a@b.co", Phone: "9876543210", Password: "longenough"},
		{Name: "A", Email: "not-an-email", Phone: "9876543210", Password: "longenough"},
		{Name: "A", Email: "a@b.co", Phone: "12", Password: "longenough"},
		{Name: "A", Email: "a@b.co", Phone: "9876543210", Password: "short"},
	}
	for i, b := range bad {
		if err := b.Validate(true); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

func TestPasswords(t *testing.T) {
	for _, cost := range []int{4, 0} {
		p := NewPasswords(cost)
		h, err := p.Hash("correct horse")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[int]string{4: "$2a$04$", 0: "$2a$10$"}[cost]; !strings.HasPrefix(h, want) {
			t.Fatalf("cost %d hash %q", cost, h[:7])
		}
		u := &User{PasswordHash: h}
		if !p.Check(u, "correct horse") || p.Check(u, "wrong") || p.Check(nil, "correct horse") {
			t.Fatal("password check wrong")
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	cases := []struct{ in, want string }{
		{"u1@ex.com", "u1@ex.com"},
		{"u1@ex.coｍ", "u1@ex.com"},             // fullwidth m
		{"Ｕ１＠ＥＸ．ＣＯＭ", "u1@ex.com"},             // fullwidth everything, @ and dot included
		{" R1@Ex.com ", "r1@ex.com"},           // blanks and case
		{"\u3000r1@ex.com\u3000", "r1@ex.com"}, // ideographic spaces (NFKC: plain spaces)
		{"ﬁnance@ex.com", "finance@ex.com"},    // ligature
		{"ǅemal@ex.com", "džemal@ex.com"},      // title-case digraph
		{"cafe\u0301@ex.com", "café@ex.com"},   // combining accent composes
		{"İnci@ex.com", "inci@ex.com"},         // capital dotted I (Go lower-cases it to a plain i)
		{"ＭＡＲＩＡ@ℰ𝓍.com", "maria@ex.com"},       // letterlike and mathematical letters
	}
	for _, c := range cases {
		got := NormalizeEmail(c.in)
		if got != c.want {
			t.Errorf("NormalizeEmail(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := NormalizeEmail(got); again != got {
			t.Errorf("NormalizeEmail is not a fixed point on %q: %q", got, again)
		}
	}
	p := Profile{Name: "U", Email: "u1@ex.coｍ", Phone: "9876543210", Password: "password-1"}
	if err := p.Validate(true); err != nil || p.Email != "u1@ex.com" {
		t.Fatalf("Validate: %v, email %q", err, p.Email)
	}
}
