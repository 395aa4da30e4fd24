package httpapi_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paygate/core/events/webhook"
)

// Every event an end-to-end test's server writes to the outbox is checked
// against the contract's WebhookEvent schema when the test ends (newEnv
// registers checkOutbox): a payload field that is not documented, a
// documented one missing, a wrong format or a type without a schema fails
// the test that produced it.

// eventsSeen are the event types checked so far in this run.
var eventsSeen sync.Map

// TestMain checks, after a run of the whole package (no -run) that passed,
// or any run with EVENT_COVERAGE=1, that the end-to-end tests made the
// server write every event type at least once: so every type's schema was
// checked against real bodies, not only declared.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	whole := true
	for _, name := range []string{"test.run", "test.skip", "test.fuzz", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			whole = false
		}
	}
	if code == 0 && (whole || os.Getenv("EVENT_COVERAGE") == "1") {
		if missing := missingEventTypes(); len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no end-to-end test made the server write these event types, so their schemas "+
				"in api/openapi.yaml were never checked against a real body: %v\n", missing)
			code = 1
		}
	}
	os.Exit(code)
}

// missingEventTypes are the types of webhook.EventTypes not seen yet.
func missingEventTypes() []webhook.EventType {
	var out []webhook.EventType
	for _, typ := range webhook.EventTypes {
		if _, ok := eventsSeen.Load(string(typ)); !ok {
			out = append(out, typ)
		}
	}
	return out
}

// checkEvent validates one outbox body, of outbox type typ, against the
// document's WebhookEvent schema.
func (c *contract) checkEvent(typ string, body []byte) error {
	s := c.doc.Components.Schemas["WebhookEvent"]
	if s == nil || s.Value == nil {
		return fmt.Errorf("api/openapi.yaml has no WebhookEvent schema")
	}
	if _, ok := s.Value.Discriminator.Mapping[typ]; !ok {
		return fmt.Errorf("event type %q has no schema in WebhookEvent's discriminator mapping", typ)
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("event %s is not a JSON object: %v", typ, err)
	}
	if v["type"] != typ {
		return fmt.Errorf("event stored as %q says type %v", typ, v["type"])
	}
	if err := s.Value.VisitJSON(any(v), openapi3.MultiErrors(), openapi3.EnableFormatValidation()); err != nil {
		return fmt.Errorf("event %s breaks WebhookEvent in api/openapi.yaml: %v", typ, err)
	}
	return nil
}

// checkOutbox validates every event of e's database against the contract.
func (e *env) checkOutbox() {
	t := e.t
	c, err := loadContract()
	if err != nil {
		t.Error(err)
		return
	}
	var rows []struct {
		Type    string
		Payload string
	}
	if err := e.store.DB().Raw("SELECT type, payload FROM webhook_events ORDER BY id").Scan(&rows).Error; err != nil {
		t.Errorf("events: read the outbox: %v", err)
		return
	}
	for _, r := range rows {
		if err := c.checkEvent(r.Type, []byte(r.Payload)); err != nil {
			t.Errorf("events: %v\nbody: %.800s", err, r.Payload)
			continue
		}
		eventsSeen.Store(r.Type, true)
	}
}

// TestEventSchemasCoverEveryType: every type the outbox can write has a
// schema whose `type` enum names it, and the mapping names nothing else.
func TestEventSchemasCoverEveryType(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	s := c.doc.Components.Schemas["WebhookEvent"].Value
	known := map[string]bool{}
	for _, typ := range webhook.EventTypes {
		known[string(typ)] = true
		ref, ok := s.Discriminator.Mapping[string(typ)]
		if !ok {
			t.Errorf("event type %s has no schema in WebhookEvent", typ)
			continue
		}
		name := strings.TrimPrefix(ref.Ref, "#/components/schemas/")
		target := c.doc.Components.Schemas[name]
		if target == nil {
			t.Errorf("event type %s maps to %s, not a schema", typ, ref.Ref)
			continue
		}
		enum := target.Value.Properties["type"].Value.Enum
		found := false
		for _, v := range enum {
			found = found || v == string(typ)
		}
		if !found {
			t.Errorf("event type %s maps to %s, whose type enum %v does not name it", typ, name, enum)
		}
		inOneOf := false
		for _, o := range s.OneOf {
			inOneOf = inOneOf || o.Ref == ref.Ref
		}
		if !inOneOf {
			t.Errorf("%s (of %s) is not a branch of WebhookEvent's oneOf", name, typ)
		}
	}
	for typ := range s.Discriminator.Mapping {
		if !known[typ] {
			t.Errorf("WebhookEvent maps %s, which webhook.EventTypes does not have", typ)
		}
	}
	var enum []string
	for _, v := range c.doc.Components.Schemas["WebhookEventType"].Value.Enum {
		enum = append(enum, v.(string))
	}
	if len(enum) != len(webhook.EventTypes) {
		t.Errorf("WebhookEventType lists %v, webhook.EventTypes %v", enum, webhook.EventTypes)
	}
	var seen []string
	eventsSeen.Range(func(k, _ any) bool { seen = append(seen, k.(string)); return true })
	sort.Strings(seen)
	t.Logf("event types checked against the contract so far in this run: %v", seen)
}

// TestEventCheckCanFail guards the guard: bodies the server must never
// write are caught.
func TestEventCheckCanFail(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	const good = `{"type":"balance.low","timestamp":"2026-11-27T10:00:00.123456789Z","livemode":false,` +
		`"data":{"user_id":7,"balance":"9.00","threshold":"9.50","txn_id":"TXN000000000000000000000000000000000000001"}}`
	if err := c.checkEvent("balance.low", []byte(good)); err != nil {
		t.Fatalf("a good balance.low is refused: %v", err)
	}
	bad := map[string]struct{ typ, body string }{
		"money as a number":              {"balance.low", strings.Replace(good, `"balance":"9.00"`, `"balance":9`, 1)},
		"money with 1 place":             {"balance.low", strings.Replace(good, `"balance":"9.00"`, `"balance":"9.0"`, 1)},
		"undocumented field":             {"balance.low", strings.Replace(good, `"user_id":7`, `"user_id":7,"secret":"x"`, 1)},
		"missing field":                  {"balance.low", strings.Replace(good, `,"threshold":"9.50"`, ``, 1)},
		"not a timestamp":                {"balance.low", strings.Replace(good, `2026-11-27T10:00:00.123456789Z`, `yesterday`, 1)},
		"no livemode":                    {"balance.low", strings.Replace(good, `"livemode":false,`, ``, 1)},
		"unknown type":                   {"balance.high", strings.Replace(good, `"balance.low"`, `"balance.high"`, 1)},
		"type differs from the outbox's": {"payment.success", good},
		"another family's data":          {"payment.success", strings.Replace(good, `"balance.low"`, `"payment.success"`, 1)},
		"payment status outside its enum": {"payment.success", `{"type":"payment.success","timestamp":"2026-11-27T10:00:00Z","livemode":true,` +
			`"data":{"payment_id":"pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5","amount":"10.00","currency":"INR","customer_id":"c","status":"pending",` +
			`"provider_ref":null,"completed_at":null,"created_at":"2026-11-27T10:00:00Z","livemode":true,"purpose":"collection","fee":"0.00"}}`},
	}
	for name, b := range bad {
		if err := c.checkEvent(b.typ, []byte(b.body)); err == nil {
			t.Errorf("%s: accepted %s", name, b.body)
		}
	}
}
