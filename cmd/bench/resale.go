package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
)

// A reseller's customer calling the same service: its charge is the
// reseller's selling price (decisions "Resellers: one price, shown and charged"), resolved on the metered
// path from cached rows; the reseller's own row is never locked or written
// by the call. Measured beside the ordinary caller in the same run.
const (
	benchResellerEmail = "bench-reseller@example.com"
	benchCustomerEmail = "bench-customer@example.com"
	benchSellingPrice  = "0.0200" // the customer's charge: 0.02; the reseller's commission 0.01 a call
	benchCommission    = "0.01"
)

// setupCustomer makes a reseller with a selling price for bench-echo and
// a funded customer of it, and returns the customer's API key. The
// customer is an ordinary user made the reseller's in the database (the
// panel's customers API is another part of the reseller work); everything
// else goes through the panel API.
func setupCustomer(ctx context.Context, base, adminEmail, adminPassword, dbURL string) (credentials, error) {
	admin, err := login(ctx, base, adminEmail, adminPassword)
	if err != nil {
		return credentials{}, fmt.Errorf("admin login: %w", err)
	}
	mk := func(email, role string) (uint64, string, error) {
		password := secret()
		var u created
		err := admin.do(ctx, "POST", "/api/v1/panel/users", map[string]any{
			"name": "Bench " + role, "email": email, "phone": fmt.Sprintf("8%09d", rand.IntN(1_000_000_000)),
			"password": password, "role": role, "status": "active", "plan": "enterprise",
		}, http.StatusCreated, &u)
		return u.ID, password, err
	}
	rid, rpass, err := mk(benchResellerEmail, "reseller")
	if err != nil {
		return credentials{}, err
	}
	cid, cpass, err := mk(benchCustomerEmail, "user")
	if err != nil {
		return credentials{}, err
	}
	s, err := sqlstore.Open(ctx, dbURL, slog.New(slog.DiscardHandler))
	if err != nil {
		return credentials{}, err
	}
	defer s.Close()
	if err := s.DB().WithContext(ctx).Exec("UPDATE users SET parent_id = ? WHERE id = ?", rid, cid).Error; err != nil {
		return credentials{}, fmt.Errorf("make the customer the reseller's: %w", err)
	}
	var svc uint64
	if err := s.DB().WithContext(ctx).Raw("SELECT id FROM api_services WHERE slug = 'bench-echo'").Scan(&svc).Error; err != nil || svc == 0 {
		return credentials{}, fmt.Errorf("find bench-echo: %v", err)
	}
	if err := admin.do(ctx, "POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", cid), map[string]any{
		"type": "credit", "amount": benchFunding, "description": "bench funding",
	}, http.StatusCreated, nil); err != nil {
		return credentials{}, err
	}
	reseller, err := login(ctx, base, benchResellerEmail, rpass)
	if err != nil {
		return credentials{}, fmt.Errorf("reseller login: %w", err)
	}
	if err := reseller.do(ctx, "PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), map[string]any{"price": benchSellingPrice},
		http.StatusOK, nil); err != nil {
		return credentials{}, err
	}
	cust, err := login(ctx, base, benchCustomerEmail, cpass)
	if err != nil {
		return credentials{}, fmt.Errorf("customer login: %w", err)
	}
	var key struct {
		Key    string `json:"key"`
		Secret string `json:"secret"`
	}
	if err := cust.do(ctx, "POST", "/api/v1/panel/api-keys", map[string]any{"name": "bench", "daily_limit": 10_000_000}, http.StatusCreated, &key); err != nil {
		return credentials{}, err
	}
	return credentials{Key: key.Key, Secret: key.Secret}, nil
}

// countResale checks the customer's calls as countCharges checks the
// ordinary ones: every answered call charged once at the selling price,
// each carrying the reseller's commission, the reseller's balance
// untouched.
func countResale(ctx context.Context, dbURL string, runs ...Result) (*chargeCount, error) {
	s, err := sqlstore.Open(ctx, dbURL, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	c, id, err := tallyCharges(ctx, s, benchCustomerEmail, benchSellingPrice, runs)
	if err != nil {
		return nil, err
	}
	var wrong int64
	if err := s.DB().WithContext(ctx).Raw("SELECT COUNT(*) FROM api_hit_logs WHERE user_id = ? AND status = 'success' "+
		"AND (commission <> ? OR reseller_id IS NULL)", id, benchCommission).Scan(&wrong).Error; err != nil {
		return nil, fmt.Errorf("count the customer's hits: %w", err)
	}
	if c.Problem == "" && wrong > 0 {
		c.Problem = fmt.Sprintf("%d of the customer's hits without the reseller's commission of %s", wrong, benchCommission)
	}
	var resellerBalance string
	if err := s.DB().WithContext(ctx).Raw("SELECT balance FROM users WHERE email = ?", benchResellerEmail).Scan(&resellerBalance).Error; err != nil {
		return nil, err
	}
	if b, err := decimal.NewFromString(resellerBalance); c.Problem == "" && (err != nil || !b.IsZero()) {
		c.Problem = fmt.Sprintf("the reseller's balance moved on the metered path: %s", resellerBalance)
	}
	return c, nil
}
