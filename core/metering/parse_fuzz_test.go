package metering

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// FuzzParseParams fuzzes how a metered call's parameters are read:
// parameters from the query for GET/DELETE, from a JSON object body for
// POST/PUT. It never panics; the payload kept in the hit log (and sent
// upstream for POST/PUT) is always valid JSON; an accepted body is one JSON
// object whose keys are the parameters.
func FuzzParseParams(f *testing.F) {
	for _, b := range []string{"", "  ", "{}", `{"phone":"9876543210","n":1.50}`, `{"a":{"b":[1,2]}}`, "[]", "null", "1", `"x"`,
		`{} {}`, `{"a":1}]`, `{"a":1}}`, `{"a":`, "\xff", `{"a":1e999}`} {
		f.Add(uint8(2), "", []byte(b))
	}
	f.Add(uint8(0), "phone=9876543210&n=1", []byte(nil))
	f.Add(uint8(1), "a=1&a=2&b=&%zz", []byte(nil))
	f.Fuzz(func(t *testing.T, m uint8, rawQuery string, body []byte) {
		method := []string{http.MethodGet, http.MethodDelete, http.MethodPost, http.MethodPut}[int(m)%4]
		query, _ := url.ParseQuery(rawQuery)
		params, payload, err := parseParams(method, query, body)
		if !json.Valid([]byte(payload)) {
			t.Fatalf("payload %q is not JSON", payload)
		}
		if err != nil {
			if err != ErrBodyNotObject || method == http.MethodGet || method == http.MethodDelete {
				t.Fatalf("%s refused with %v", method, err)
			}
			return
		}
		var obj map[string]any
		dec := json.NewDecoder(strings.NewReader(payload))
		dec.UseNumber()
		if dec.Decode(&obj) != nil || obj == nil || params == nil {
			t.Fatalf("payload %q is not a JSON object", payload)
		}
		// Keys that differ only in invalid UTF-8 share one JSON key in the
		// payload (encoding/json writes U+FFFD; corpus entry 8f8d3959b9291fd0).
		keys := map[string]bool{}
		for k := range params {
			b, _ := json.Marshal(k)
			keys[string(b)] = true
		}
		if len(obj) != len(keys) {
			t.Fatalf("payload %q has %d keys, params %d", payload, len(obj), len(params))
		}
		if method == http.MethodGet || method == http.MethodDelete {
			for k, v := range params {
				if v != query.Get(k) {
					t.Fatalf("param %s = %v, query %q", k, v, query.Get(k))
				}
			}
		}
	})
}
