// Command example uses the generated Go client (paygate/client) the way an
// integrator would: it signs in to the panel API, creates an API key, calls
// a metered service with the key and its secret, creates a payment with the
// secret, and verifies a webhook delivery's signature.
//
//	make run   # in another terminal: the server on http://localhost:8080 with demo data
//	go run ./client/example -base http://localhost:8080 -email you@example.com -password '...'
//
// The account needs a balance of at least the service's price (the demo's
// sms-gateway-api costs 0.25 for a user). Every run creates a key named
// "client example" (revoke it in the panel's API keys) and a payment.
// -webhook-secret is the account's whsec_ signing secret (the panel's
// Webhooks page shows it once when rotated); without it the example signs
// its sample delivery with a secret of its own. The last line printed is a
// JSON summary.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"paygate/client"
)

type config struct {
	base, email, password string
	service, method       string
	params                string // JSON object
	amount, callbackURL   string
	webhookSecret         string
}

// summary is the last line the example prints.
type summary struct {
	KeyID           int64  `json:"key_id"`
	Key             string `json:"key"`
	RequestID       string `json:"request_id"`
	Charged         string `json:"charged"`
	BalanceLeft     string `json:"balance_left"`
	PaymentID       string `json:"payment_id"`
	PaymentURL      string `json:"payment_url"`
	WebhookVerified bool   `json:"webhook_verified"`
}

func main() {
	var c config
	flag.StringVar(&c.base, "base", "http://localhost:8080", "the server's address")
	flag.StringVar(&c.email, "email", "", "the account's email (required)")
	flag.StringVar(&c.password, "password", "", "the account's password (required)")
	flag.StringVar(&c.service, "service", "sms-gateway-api", "the slug of the service to call")
	flag.StringVar(&c.method, "method", "POST", "the service's method: POST (a JSON body) or GET (a query string)")
	flag.StringVar(&c.params, "params", `{"phone":"9876543210","message":"Your OTP is 123456","template_id":"TPL_OTP_01"}`,
		"the call's parameters, a JSON object")
	flag.StringVar(&c.amount, "amount", "499.50", "the payment's amount in rupees, a decimal string")
	flag.StringVar(&c.callbackURL, "callback-url", "https://example.com/paygate/callback", "the payment's callback_url")
	flag.StringVar(&c.webhookSecret, "webhook-secret", "", "the account's whsec_ signing secret (optional)")
	flag.Parse()
	if c.email == "" || c.password == "" {
		fmt.Fprintln(os.Stderr, "example: -email and -password are required")
		flag.Usage()
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := run(ctx, c, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
	out, _ := json.Marshal(s)
	fmt.Println(string(out))
}

// header sets one request header: the credentials of each kind of call.
func header(name, value string) client.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set(name, value)
		return nil
	}
}

// apiError is a non-2xx answer: its status and the error body's code and message.
func apiError(step string, res *http.Response, body []byte) error {
	var e client.Error
	if json.Unmarshal(body, &e) == nil && e.Message != "" {
		if e.Errors != nil {
			fields, _ := json.Marshal(e.Errors)
			return fmt.Errorf("%s: %s: %s (%s) %s", step, res.Status, e.Message, e.Error, fields)
		}
		return fmt.Errorf("%s: %s: %s (%s)", step, res.Status, e.Message, e.Error)
	}
	return fmt.Errorf("%s: %s: %s", step, res.Status, bytes.TrimSpace(body))
}

func run(ctx context.Context, c config, w io.Writer) (summary, error) {
	var s summary
	api, err := client.NewClientWithResponses(strings.TrimRight(c.base, "/"))
	if err != nil {
		return s, err
	}

	// 1. Sign in to the panel API: a 15-minute access token.
	login, err := api.LoginWithResponse(ctx, client.LoginJSONRequestBody{Email: c.email, Password: c.password})
	if err != nil {
		return s, err
	}
	if login.JSON200 == nil {
		return s, apiError("sign in", login.HTTPResponse, login.Body)
	}
	panel := header("Authorization", "Bearer "+login.JSON200.AccessToken)
	fmt.Fprintf(w, "signed in as %s (%s), balance %s\n", login.JSON200.User.Email, login.JSON200.User.Role, login.JSON200.User.Balance)

	// 2. Create an API key: its secret is shown this once.
	key, err := api.CreateApiKeyWithResponse(ctx, client.CreateApiKeyJSONRequestBody{Name: "client example"}, panel)
	if err != nil {
		return s, err
	}
	if key.JSON201 == nil {
		return s, apiError("create a key", key.HTTPResponse, key.Body)
	}
	s.KeyID, s.Key = key.JSON201.Id, key.JSON201.Key
	secret := key.JSON201.Secret
	fmt.Fprintf(w, "created key %d %s\n", s.KeyID, s.Key)

	// 3. Call the service with the key and its secret. Numbers in the
	// parameters keep their digits (json.Number), never a float.
	dec := json.NewDecoder(strings.NewReader(c.params))
	dec.UseNumber()
	var params map[string]any
	if err := dec.Decode(&params); err != nil {
		return s, fmt.Errorf("-params is not a JSON object: %w", err)
	}
	creds := []client.RequestEditorFn{header("X-API-Key", s.Key), header("X-API-Secret", secret)}
	var status int
	var body []byte
	var envelope *client.CallSuccess
	switch strings.ToUpper(c.method) {
	case http.MethodPost:
		r, err := api.CallServicePostWithResponse(ctx, c.service, params, creds...)
		if err != nil {
			return s, err
		}
		status, body, envelope = r.StatusCode(), r.Body, r.JSON200
	case http.MethodGet:
		q := client.ServiceParams{}
		for k, v := range params {
			q[k] = fmt.Sprint(v)
		}
		r, err := api.CallServiceGetWithResponse(ctx, c.service, &client.CallServiceGetParams{Params: &q}, creds...)
		if err != nil {
			return s, err
		}
		status, body, envelope = r.StatusCode(), r.Body, r.JSON200
	default:
		return s, fmt.Errorf("-method %s: POST or GET", c.method)
	}
	if envelope == nil {
		return s, apiError("call "+c.service, &http.Response{Status: strconv.Itoa(status)}, body)
	}
	s.RequestID, s.Charged, s.BalanceLeft = envelope.RequestId, envelope.Charged, envelope.BalanceLeft
	fmt.Fprintf(w, "called %s: request %s, charged %s, balance left %s\n", c.service, s.RequestID, s.Charged, s.BalanceLeft)

	// 4. Create a payment: gateway endpoints take the secret as a Bearer
	// token; the Idempotency-Key makes a retry of this request safe.
	idem := "example-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	pay, err := api.CreatePaymentWithResponse(ctx, &client.CreatePaymentParams{IdempotencyKey: &idem}, client.CreatePaymentJSONRequestBody{
		Amount: c.amount, Currency: client.PaymentCreateRequestCurrency("INR"), CustomerId: "cust_example", CallbackUrl: c.callbackURL,
	}, header("Authorization", "Bearer "+secret))
	if err != nil {
		return s, err
	}
	if pay.JSON201 == nil {
		return s, apiError("create a payment", pay.HTTPResponse, pay.Body)
	}
	s.PaymentID, s.PaymentURL = pay.JSON201.PaymentId, pay.JSON201.PaymentUrl
	fmt.Fprintf(w, "created payment %s (%s): pay at %s\n", s.PaymentID, pay.JSON201.Status, s.PaymentURL)

	// 5. Verify a webhook delivery. A receiver reads the Webhook-Id,
	// Webhook-Timestamp and Webhook-Signature headers and the raw body;
	// here a sample delivery of payment.success for the payment above.
	whsec := c.webhookSecret
	if whsec == "" {
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		whsec = "whsec_" + base64.StdEncoding.EncodeToString(k)
		fmt.Fprintln(w, "no -webhook-secret: the sample delivery is signed with a secret of the example's own")
	}
	now := time.Now()
	event, _ := json.Marshal(map[string]any{"id": "evt_example", "type": "payment.success", "created_at": now.UTC().Format(time.RFC3339),
		"data": map[string]any{"payment_id": s.PaymentID, "amount": c.amount, "status": "success"}})
	sig, err := client.SignWebhook(whsec, "msg_example", now, event)
	if err != nil {
		return s, err
	}
	delivery := http.Header{}
	delivery.Set("Webhook-Id", "msg_example")
	delivery.Set("Webhook-Timestamp", strconv.FormatInt(now.Unix(), 10))
	delivery.Set("Webhook-Signature", sig)
	if err := client.VerifyWebhookRequest(whsec, delivery, event); err != nil {
		return s, fmt.Errorf("verify the sample delivery: %w", err)
	}
	tampered := bytes.Replace(event, []byte(c.amount), []byte("1.00"), 1)
	if err := client.VerifyWebhookRequest(whsec, delivery, tampered); !errors.Is(err, client.ErrWebhookSignature) {
		return s, fmt.Errorf("a tampered delivery was not refused: %v", err)
	}
	s.WebhookVerified = true
	fmt.Fprintln(w, "webhook signature verified; a tampered body is refused")
	return s, nil
}
