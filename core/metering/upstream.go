package metering

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
	"paygate/core/platform/sensitive"
)

// The upstream call of a metered call, and what its hit keeps of the
// request and the answer: parameters parsed and masked, secrets scrubbed
// from the answer, payloads capped.

// callUpstream makes a metered call's upstream call and records its
// outcome on hit: a usable answer (2xx with JSON) succeeds at charge, with
// the price's admin cost and the answer as payload (data, failure nil);
// anything else fails with its error (failHit). started is when the
// upstream call began. The stored payloads have secrets (the full values
// of sensitive parameters) masked wherever the upstream echoed them.
func (a *Metering) callUpstream(ctx context.Context, c *call) (data json.RawMessage, started time.Time, failure error) {
	hit := c.hit
	started = time.Now() // metrics: upstream latency
	resp, callErr := a.up.Do(context.WithoutCancel(ctx), a.upstreamRequest(c.svc, c.params, c.payload))
	hit.ResponseTimeMs = int(a.now().Sub(c.start) / time.Millisecond)
	upOK := callErr == nil && resp.Status >= 200 && resp.Status < 300 && json.Valid(resp.Body)
	a.metrics.UpstreamDone(c.svc.Slug, time.Since(started), upOK) // metrics
	if !upOK {
		failure = upstreamFailure(resp, callErr)
		failHit(hit, failure)
		if len(c.secrets) > 0 {
			body := sensitive.Scrub(*hit.ResponsePayload, c.secrets)
			hit.ResponsePayload = &body
		}
		return nil, started, failure
	}
	hit.Status = hitlog.StatusSuccess
	hit.ChargeAmount = c.charge
	hit.CostAmount = c.price.AdminCost // the upstream's cost of this call, for the platform's margin
	hit.Commission = c.commission      // the reseller's earning, when the caller is its customer
	body := a.capPayload(sensitive.Scrub(string(resp.Body), c.secrets))
	hit.ResponsePayload = &body
	return json.RawMessage(resp.Body), started, nil
}

// failHit records a failed call on its hit: no charge, no cost, the error
// as payload.
func failHit(hit *hitlog.Hit, failure error) {
	body := errorPayload(failure)
	hit.Status = hitlog.StatusFailed
	hit.ChargeAmount, hit.CostAmount, hit.Commission = decimal.Zero, decimal.Zero, decimal.Zero
	hit.ResponsePayload = &body
}

func (a *Metering) upstreamRequest(svc *catalog.Service, params map[string]any, payload string) UpstreamRequest {
	h := http.Header{}
	providerKey := ""
	if svc.ProviderKey != nil {
		providerKey = *svc.ProviderKey
	}
	for name, v := range svc.Headers {
		h.Set(name, strings.ReplaceAll(v, "{provider_key}", providerKey))
	}
	req := UpstreamRequest{Method: svc.Method, URL: svc.ProviderURL, Header: h, Timeout: a.cfg.UpstreamTimeout}
	if svc.Method == http.MethodGet || svc.Method == http.MethodDelete {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, fmt.Sprint(v))
		}
		req.Query = q
	} else {
		req.Body = []byte(payload)
	}
	return req
}

// JSONBlank reports whether b holds only the whitespace JSON allows between
// tokens (RFC 8259: space, tab, CR, LF). bytes.TrimSpace would also take
// \v, \f and Unicode spaces, letting `{}\v` pass as JSON (seed
// f1e9a4b59530a1da). The panel's and the gateway's body checks use it too.
func JSONBlank(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// callRequest is a call's parameters as upstream gets them and as its
// hit keeps them.
type callRequest struct {
	params  map[string]any
	payload string   // as sent: upstream's body for POST/PUT
	stored  string   // the hit's request_payload: sensitive values masked, capped
	secrets []string // the full values of sensitive parameters, scrubbed from answers
	dropped []string // undocumented names left out of stored
	err     error    // ErrBodyNotObject: the body is not a JSON object
}

// readRequest reads a call's parameters (parseParams) and what its hit
// keeps of them (storedPayload, capped): the hit log keeps sensitive
// values masked; upstream gets the parameters and payload as sent.
func (a *Metering) readRequest(method string, specs *catalog.CompiledSpecs, query url.Values, body []byte) callRequest {
	params, payload, perr := parseParams(method, query, body)
	stored, secrets, dropped := storedPayload(specs, params, payload, perr)
	return callRequest{params: params, payload: payload, stored: a.capPayload(stored), secrets: secrets, dropped: dropped, err: perr}
}

// parseParams reads the caller's parameters: the query string for GET and
// DELETE services, the JSON object body for POST and PUT. payload is the
// JSON kept in the hit log (and sent upstream for POST/PUT).
func parseParams(method string, query url.Values, body []byte) (map[string]any, string, error) {
	params := map[string]any{}
	if method == http.MethodGet || method == http.MethodDelete {
		for k, v := range query {
			if len(v) > 0 {
				params[k] = v[0]
			}
		}
		b, _ := json.Marshal(params)
		return params, string(b), nil
	}
	if JSONBlank(body) {
		return params, "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	// Only blanks may follow the object: dec.More() let `{"a":1}]` through
	// as a payload that is not JSON; `null` decodes to no map (both found by
	// FuzzParseParams).
	if err := dec.Decode(&params); err != nil || params == nil || !JSONBlank(body[dec.InputOffset():]) {
		b, _ := json.Marshal(map[string]string{"invalid_body": truncate(string(body), 1000)})
		return nil, string(b), ErrBodyNotObject
	}
	return params, string(body), nil
}

// storedPayload is the hit log's request_payload of a call: for a service
// with sensitive parameters, only its documented parameters, sensitive
// values masked (catalog's Stored), those values in full (to scrub from the
// stored answer), and the names dropped. A body that is not a JSON object
// cannot be told apart into parameters: with sensitive parameters, it is
// kept masked whole.
func storedPayload(specs *catalog.CompiledSpecs, params map[string]any, payload string, perr error) (string, []string, []string) {
	if !specs.HasSensitive() {
		return payload, nil, nil
	}
	if perr != nil {
		var bad map[string]string
		if json.Unmarshal([]byte(payload), &bad) != nil {
			return `{"invalid_body":""}`, nil, nil
		}
		b, _ := json.Marshal(map[string]string{"invalid_body": sensitive.Mask(bad["invalid_body"])})
		return string(b), nil, nil
	}
	stored, secrets, dropped := specs.Stored(params)
	b, err := json.Marshal(stored)
	if err != nil {
		return `{}`, secrets, dropped
	}
	return string(b), secrets, dropped
}

// scrubbedError is a refusal that names parameters the hit log must not
// keep (an undocumented name of a service with sensitive parameters may be
// the number itself): the caller's answer names them, the stored answer
// (errorPayload) has them masked.
type scrubbedError struct {
	error
	names []string
}

func (e *scrubbedError) Unwrap() error { return e.error }

// upstreamFailure turns a bad upstream answer into the 500 the caller sees.
func upstreamFailure(resp UpstreamResponse, callErr error) error {
	msg := "Service error"
	switch {
	case callErr != nil:
		msg = "Service error: " + callErr.Error()
	case resp.Status >= 200 && resp.Status < 300:
		msg = "Service error: upstream answered invalid JSON"
	default:
		var body struct {
			Message any `json:"message"`
			Error   any `json:"error"`
		}
		if json.Unmarshal(resp.Body, &body) == nil {
			for _, v := range []any{body.Message, body.Error} {
				if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
					msg = truncate(strings.TrimSpace(s), 200)
					break
				}
			}
		}
	}
	return errs.E(errs.Upstream, "upstream_error", msg)
}

// capPayload keeps hit log payloads within the column; a larger one is
// replaced by a JSON note of its size.
// Bytes that are not UTF-8 (encoding/json lets them through inside
// strings) become U+FFFD: MySQL refuses such text, and one refused row
// would fail the whole group-committed batch of other users' calls.
func (a *Metering) capPayload(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= a.cfg.MaxPayloadBytes {
		return s
	}
	b, _ := json.Marshal(map[string]any{"truncated": true, "bytes": len(s)})
	return string(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
