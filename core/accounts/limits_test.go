package accounts_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/user"
)

// A registration on a reseller's domain starts with the reseller's daily
// payout limit and collection fee, not the platform's defaults.
func TestRegisteredCustomerStartsWithItsResellersLimits(t *testing.T) {
	f := newAccounts(t)
	f.db.Put(user.User{ID: 8, Email: "shop@example.com", Phone: "9000000000", Role: user.RoleReseller, Status: user.StatusActive,
		DailyPayoutLimit: decimal.RequireFromString("0.00"), CollectionFeePercent: decimal.RequireFromString("5")})
	f.email.EXPECT().IssueEmailVerification(uint64(9), "asha@example.com", f.now.Add(user.VerificationTTL)).Return("tok.en", nil)
	f.mailer.EXPECT().Send(mock.Anything, mock.Anything).Return(nil)

	if _, err := f.panel.RegisterCustomer(context.Background(), 8, profile(), ""); err != nil {
		t.Fatal(err)
	}
	got := f.db.User(9)
	if !got.DailyPayoutLimit.IsZero() || !got.CollectionFeePercent.Equal(decimal.NewFromInt(5)) {
		t.Fatalf("registered customer's limits %s / %s%%, want its reseller's 0.00 / 5%%", got.DailyPayoutLimit, got.CollectionFeePercent)
	}
}
