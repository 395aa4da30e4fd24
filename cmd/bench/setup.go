package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// panel calls the server's panel API as one signed-in user.
type panel struct {
	base  string
	token string
}

// do sends in as JSON and decodes the answer into out; any status but
// want is an error carrying the body.
func (p *panel) do(ctx context.Context, method, path string, in any, want int, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, strings.TrimSpace(string(b)))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: decode answer: %w", method, path, err)
		}
	}
	return nil
}

func login(ctx context.Context, base, email, password string) (*panel, error) {
	p := &panel{base: base}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := p.do(ctx, "POST", "/api/v1/panel/auth/login", map[string]string{"email": email, "password": password}, http.StatusOK, &tok); err != nil {
		return nil, err
	}
	if tok.AccessToken == "" {
		return nil, fmt.Errorf("login as %s: no access_token in the answer", email)
	}
	p.token = tok.AccessToken
	return p, nil
}

type created struct {
	ID uint64 `json:"id"`
}

// credentials are an API key and its secret.
type credentials struct{ Key, Secret string }

// setupMetered registers the bench-echo service pointing at upstreamURL with
// a 0.01 price, creates a funded enterprise user and returns that user's
// API key. Every call goes through the panel API, as an operator would.
// The metered run's user and service: every metered call costs benchPrice
// from benchFunding (countCharges reads what was charged).
const (
	benchUserEmail = "bench-user@example.com"
	benchPrice     = "0.0100"
	benchFunding   = "1000000.00"
)

func setupMetered(ctx context.Context, base, adminEmail, adminPassword, upstreamURL string) (credentials, error) {
	admin, err := login(ctx, base, adminEmail, adminPassword)
	if err != nil {
		return credentials{}, fmt.Errorf("admin login: %w", err)
	}
	var svc created
	if err := admin.do(ctx, "POST", "/api/v1/panel/services", map[string]any{
		"name": "Bench echo", "slug": "bench-echo", "category": "bench",
		"provider_url": upstreamURL + "/echo", "method": "POST",
	}, http.StatusCreated, &svc); err != nil {
		return credentials{}, err
	}
	if err := admin.do(ctx, "POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", svc.ID), map[string]any{
		"admin_cost": benchPrice, "user_price": benchPrice, "reseller_price": benchPrice, "minimum_hit_charge": "0.00",
	}, http.StatusCreated, nil); err != nil {
		return credentials{}, err
	}

	email, password := benchUserEmail, secret()
	var u created
	if err := admin.do(ctx, "POST", "/api/v1/panel/users", map[string]any{
		"name": "Bench user", "email": email, "phone": fmt.Sprintf("9%09d", rand.IntN(1_000_000_000)),
		"password": password, "role": "user", "status": "active", "plan": "enterprise",
	}, http.StatusCreated, &u); err != nil {
		return credentials{}, err
	}
	if err := admin.do(ctx, "POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", u.ID), map[string]any{
		"type": "credit", "amount": benchFunding, "description": "bench funding",
	}, http.StatusCreated, nil); err != nil {
		return credentials{}, err
	}

	user, err := login(ctx, base, email, password)
	if err != nil {
		return credentials{}, fmt.Errorf("user login: %w", err)
	}
	var key struct {
		Key    string `json:"key"`
		Secret string `json:"secret"`
	}
	if err := user.do(ctx, "POST", "/api/v1/panel/api-keys", map[string]any{"name": "bench", "daily_limit": 10_000_000}, http.StatusCreated, &key); err != nil {
		return credentials{}, err
	}
	if key.Key == "" || key.Secret == "" {
		return credentials{}, fmt.Errorf("create API key: no key or secret in the answer")
	}
	return credentials{Key: key.Key, Secret: key.Secret}, nil
}
