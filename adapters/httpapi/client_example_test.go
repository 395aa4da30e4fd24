package httpapi_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"paygate/client"
)

// exampleBinary builds client/example once per test binary.
func exampleBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "example")
	cmd := exec.Command("go", "build", "-o", bin, "paygate/client/example")
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./client/example: %v\n%s", err, out)
	}
	return bin
}

// TestClientExampleRuns runs the client example (client/example, the
// generated client) against the running server as a customer: it signs
// in, creates a key, calls a service, creates a payment and verifies a
// webhook signature; the call is billed and the payment exists.
func TestClientExampleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building the client example takes a while")
	}
	bin := exampleBinary(t)
	each(t, func(t *testing.T, e *env) {
		var upstreamBody atomic.Value
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			upstreamBody.Store(string(b))
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
		})
		e.newService("client-example", "0.75")
		c := e.newCustomer("user", "enterprise", "50.00")
		cmd := exec.Command(bin, "-base", e.url, "-email", c.email, "-password", "user-password-1",
			"-service", "client-example", "-params", `{"to":"9876543210","count":3,"amount":1234567.89}`, "-amount", "99999.99")
		cmd.Env = append(os.Environ(), "NO_PROXY=*", "no_proxy=*")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("example: %v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		var s struct {
			KeyID           uint64 `json:"key_id"`
			RequestID       string `json:"request_id"`
			Charged         string `json:"charged"`
			BalanceLeft     string `json:"balance_left"`
			PaymentID       string `json:"payment_id"`
			WebhookVerified bool   `json:"webhook_verified"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
			t.Fatalf("the last line is not the summary: %v\n%s", err, out)
		}
		if s.Charged != "0.7500" || s.BalanceLeft != "49.25" || !strings.HasPrefix(s.RequestID, "req_") || !s.WebhookVerified {
			t.Fatalf("summary %+v\n%s", s, out)
		}
		// Billed: a successful hit of the service (and one of payment-create, priced 0.00), the debit on the balance.
		if hits := e.hitStatuses(c); hits["success"] != 2 || len(hits) != 1 {
			t.Errorf("hit logs %v, want 2 successes", hits)
		}
		if b := e.balance(c); b != "49.25" {
			t.Errorf("balance %s, want 49.25", b)
		}
		// The key is the customer's; the payment exists with the amount sent, exactly.
		keys := e.must(e.do("GET", "/api/v1/panel/api-keys", c.token, nil), 200)
		if !strings.Contains(keys.raw, "client example") {
			t.Errorf("no key named client example: %s", keys.raw)
		}
		p := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+url.QueryEscape(s.PaymentID), nil), 200)
		if !strings.Contains(p.raw, `"amount":"99999.99"`) {
			t.Errorf("payment %s: %s", s.PaymentID, p.raw)
		}
		// The upstream got the parameters with their digits (no float on the way).
		if b, _ := upstreamBody.Load().(string); !strings.Contains(b, `"amount":1234567.89`) || !strings.Contains(b, `"count":3`) {
			t.Errorf("upstream body %s", b)
		}
		e.ledgerClean()
	})
}

// TestClientVerifiesRealDeliveries: client.VerifyWebhookRequest accepts a
// delivery the server really sent, signed with the account's secret, and
// refuses it with another secret or a changed body.
func TestClientVerifiesRealDeliveries(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "enterprise", "10.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{
			"webhook_url": hooks.srv.URL + "/hooks", "low_balance_alert": "9.50"}), 200)
		secret := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		e.newService("client-lowbal", "1.00")
		e.must(e.call(c, "client-lowbal", map[string]any{"n": 1}), 200) // 10.00 → 9.00: balance.low
		if n := e.deliver(); n != 1 {
			t.Fatalf("delivered %d, want 1", n)
		}
		got := hooks.take()
		if len(got) != 1 {
			t.Fatalf("received %d", len(got))
		}
		if err := client.VerifyWebhookRequest(secret, got[0].header, got[0].body); err != nil {
			t.Fatalf("a real delivery does not verify: %v (headers %v)", err, got[0].header)
		}
		other := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		if err := client.VerifyWebhookRequest(other, got[0].header, got[0].body); !errors.Is(err, client.ErrWebhookSignature) {
			t.Errorf("another secret: %v", err)
		}
		changed := []byte(strings.Replace(string(got[0].body), "9.00", "90.00", 1))
		if err := client.VerifyWebhookRequest(secret, got[0].header, changed); !errors.Is(err, client.ErrWebhookSignature) {
			t.Errorf("a changed body: %v", err)
		}
	})
}
