package metering_test

import (
	"errors"
	"testing"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

func TestAdmitChecksInOrder(t *testing.T) {
	invalid := errs.Validation(map[string][]string{"phone": {"is required"}})
	rich := func() *user.User { return &user.User{Plan: user.PlanEnterprise, Balance: dec("10.00")} }
	held := func() *user.User {
		return &user.User{Plan: user.PlanEnterprise, Balance: dec("10.00"), HeldAmount: dec("9.50")}
	}
	starterFull := func() *user.User {
		return &user.User{Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("10.00"), PlanMonth: "2026-11", PlanCalls: user.StarterMonthlyCalls}
	}
	poor := func() *user.User {
		return &user.User{Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("0.10")}
	}
	for _, c := range []struct {
		name      string
		dailyLeft int
		invalid   error
		owner     *user.User
		month     string
		charge    string
		want      error
	}{
		{"admitted", 1, nil, rich(), "2026-11", "1.00", nil},
		{"exactly the balance", 1, nil, rich(), "2026-11", "10.00", nil},
		{"free call on an empty balance", 1, nil, &user.User{Plan: user.PlanEnterprise}, "2026-11", "0", nil},
		{"daily limit first, before everything else", 0, invalid, poor(), "2026-11", "1.00", apikey.ErrDailyLimit},
		{"parameters before the plan and the balance", 1, invalid, starterFull(), "2026-11", "99.00", invalid},
		{"plan limit before the balance", 1, nil, func() *user.User { u := starterFull(); u.Balance = dec("0"); return u }(), "2026-11", "1.00", metering.ErrPlanLimit},
		{"a new month starts the plan empty", 1, nil, starterFull(), "2026-12", "1.00", nil},
		{"balance", 1, nil, poor(), "2026-11", "0.11", ledger.ErrInsufficientBalance},
		{"held money is not available", 1, nil, held(), "2026-11", "0.51", ledger.ErrInsufficientBalance},
		{"what is left beside the held money", 1, nil, held(), "2026-11", "0.50", nil},
	} {
		got := metering.Admit(metering.Standing{DailyLeft: c.dailyLeft, Invalid: c.invalid, Owner: c.owner, Month: c.month, Charge: dec(c.charge)})
		if !errors.Is(got, c.want) || (c.want == nil) != (got == nil) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestHoldCallsAreWhatAdmitWouldAdmitInTurn(t *testing.T) {
	for _, c := range []struct {
		name    string
		owner   user.User
		charge  string
		want, n int
	}{
		{"the balance pays for all", user.User{Plan: user.PlanEnterprise, Balance: dec("100.00")}, "1.00", 8, 8},
		{"the balance pays for some", user.User{Plan: user.PlanEnterprise, Balance: dec("5.50")}, "2.00", 8, 2},
		{"held money is not available", user.User{Plan: user.PlanEnterprise, Balance: dec("10.00"), HeldAmount: dec("7.00")}, "1.00", 8, 3},
		{"nothing available", user.User{Plan: user.PlanEnterprise, Balance: dec("0.99")}, "1.00", 8, 0},
		{"free calls", user.User{Plan: user.PlanEnterprise}, "0", 16, 16},
		{"asked for none", user.User{Plan: user.PlanEnterprise, Balance: dec("10.00")}, "1.00", 0, 0},
		{"a limited plan: one call at most", user.User{Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("10.00")}, "1.00", 8, 1},
		{"a full plan: none", user.User{Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("10.00"), PlanMonth: "2026-11", PlanCalls: user.StarterMonthlyCalls}, "1.00", 8, 0},
	} {
		if got := metering.HoldCalls(&c.owner, "2026-11", dec(c.charge), c.want); got != c.n {
			t.Errorf("%s: %d, want %d", c.name, got, c.n)
		}
	}
}
