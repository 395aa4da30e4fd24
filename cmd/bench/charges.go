package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
)

// chargeCount is what the bench user was charged for the metered run,
// read from the database once the server has stopped (every capture and
// settlement written), against the answers the bench received.
type chargeCount struct {
	Answered   int    `json:"answered"`   // 2xx answers received, warm-up and measured
	Unreceived int    `json:"unreceived"` // calls whose answer never arrived (client errors): charged or not
	Charged    int64  `json:"charged"`    // successful hits
	Money      string `json:"money"`      // what left the balance: benchFunding less the balance
	Problem    string `json:"problem,omitempty"`
}

// countCharges counts the bench user's successful hits and the money they
// took, and states a problem unless every answered call was charged
// exactly once at benchPrice: answered ≤ charged ≤ answered + unreceived,
// and money = charged × benchPrice. No tolerance: a call served free is a
// failed run.
func countCharges(ctx context.Context, dbURL string, runs ...Result) (*chargeCount, error) {
	s, err := sqlstore.Open(ctx, dbURL, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	c, _, err := tallyCharges(ctx, s, benchUserEmail, benchPrice, runs)
	return c, err
}

// tallyCharges counts the charges of the bench account with email: its
// successful hits, the calls runs answered and did not, and the money its
// balance lost from benchFunding, checked against price (chargeProblem).
// It returns the account's id too.
func tallyCharges(ctx context.Context, s *sqlstore.Store, email, price string, runs []Result) (*chargeCount, uint64, error) {
	var row struct {
		ID      uint64
		Balance string
	}
	if err := s.DB().WithContext(ctx).Raw("SELECT id, balance FROM users WHERE email = ?", email).Scan(&row).Error; err != nil || row.ID == 0 {
		return nil, 0, fmt.Errorf("read the bench account %s: %v", email, err)
	}
	c := &chargeCount{}
	if err := s.DB().WithContext(ctx).Raw("SELECT COUNT(*) FROM api_hit_logs WHERE user_id = ? AND status = 'success'", row.ID).
		Scan(&c.Charged).Error; err != nil {
		return nil, 0, fmt.Errorf("count the hits of %s: %w", email, err)
	}
	for _, r := range runs {
		c.Answered += r.OK
		c.Unreceived += r.Errors
	}
	balance, err := decimal.NewFromString(row.Balance)
	if err != nil {
		return nil, 0, fmt.Errorf("balance of %s %q: %w", email, row.Balance, err)
	}
	money := decimal.RequireFromString(benchFunding).Sub(balance)
	c.Money = money.StringFixed(2)
	c.Problem = chargeProblem(c.Answered, c.Unreceived, c.Charged, money, decimal.RequireFromString(price))
	return c, row.ID, nil
}

// chargeProblem is what is wrong with charged calls taking money for
// answered (and unreceived) calls at price, or "".
func chargeProblem(answered, unreceived int, charged int64, money, price decimal.Decimal) string {
	switch {
	case charged < int64(answered):
		return fmt.Sprintf("%d calls answered but %d charged: %d served free", answered, charged, int64(answered)-charged)
	case charged > int64(answered+unreceived):
		return fmt.Sprintf("%d calls charged but only %d answered and %d unanswered", charged, answered, unreceived)
	case !money.Equal(price.Mul(decimal.NewFromInt(charged))):
		return fmt.Sprintf("%d calls charged at %s took %s", charged, price.StringFixed(4), money.StringFixed(2))
	}
	return ""
}
