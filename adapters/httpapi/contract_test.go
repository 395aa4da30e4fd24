package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"paygate/api"
)

// Every response an end-to-end test receives goes through contractCheck:
// it must be a documented status of a documented operation of
// api/openapi.yaml, with a body that matches the documented schema. A
// mismatch fails the test that made the request.
//
// Exceptions, all of them:
//   - paths outside the API (the SPA and its assets), see outsideAPI;
//   - requests a test marks with outsideContract (probing unknown paths or
//     methods): those must answer 404 or 405 with the documented error body.

// contract is the loaded document and a router over its operations.
type contract struct {
	doc    *openapi3.T
	router routers.Router
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPI)
	if err != nil {
		return nil, fmt.Errorf("load api/openapi.yaml: %w", err)
	}
	// Bodies that are files, not data to decode: the document itself, the
	// docs page, and uploaded images and PDFs.
	for _, ct := range []string{"application/yaml", "text/html", "image/png", "image/jpeg", "image/webp", "application/pdf"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
	// The document's only server is "/": match on the path alone.
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route api/openapi.yaml: %w", err)
	}
	return &contract{doc: doc, router: router}, nil
})

// outsideAPI is true for paths the document does not cover: the SPA's
// assets and client routes, served at every path outside /api/ and the
// operator endpoints.
func outsideAPI(path string) bool {
	return !strings.HasPrefix(path, "/api/") && path != "/healthz" && path != "/readyz" && path != "/metrics"
}

type outsideContractKey struct{}

// outsideContract marks a request as deliberately outside the document (an
// unknown path, or a method a path does not have).
func outsideContract(req *http.Request) *http.Request {
	return req.WithContext(context.WithValue(req.Context(), outsideContractKey{}, true))
}

// findRoute finds the documented operation of req. The legacy router is
// lenient (it matches "/services" to "/services/{id}" with an empty id, and
// ignores a trailing slash), so the match must also spell the path exactly.
func (c *contract) findRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, nil, err
	}
	path := route.Path
	for name, value := range params {
		if value == "" {
			return nil, nil, fmt.Errorf("path parameter %s is empty", name)
		}
		path = strings.ReplaceAll(path, "{"+name+"}", value)
	}
	if path != req.URL.Path {
		return nil, nil, fmt.Errorf("no operation has exactly this path (nearest: %s)", route.Path)
	}
	return route, params, nil
}

// check validates one response against the document.
func (c *contract) check(req *http.Request, status int, header http.Header, body []byte) error {
	if outsideAPI(req.URL.Path) {
		return nil
	}
	if req.Context().Value(outsideContractKey{}) != nil {
		return c.checkUnknown(req, status, header, body)
	}
	route, params, err := c.findRoute(req)
	if err != nil {
		return fmt.Errorf("%s %s is not an operation of api/openapi.yaml: %v", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus:   true,
			MultiError:              true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.EnableFormatValidation()},
		},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("response to %s %s (operation %s %s) breaks api/openapi.yaml: %v",
			req.Method, req.URL.Path, route.Method, route.Path, err)
	}
	return nil
}

// checkUnknown: a request outside the document gets 404 or 405 with the
// common error body, and is not served by any documented operation.
func (c *contract) checkUnknown(req *http.Request, status int, header http.Header, body []byte) error {
	if _, _, err := c.findRoute(req); err == nil {
		return fmt.Errorf("%s %s is marked outside the contract but is a documented operation", req.Method, req.URL.Path)
	}
	if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		return fmt.Errorf("%s %s is not in api/openapi.yaml and answered %d; an unknown path must answer 404 or 405", req.Method, req.URL.Path, status)
	}
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("%s %s answered Content-Type %q, want the JSON error body", req.Method, req.URL.Path, ct)
	}
	v, err := decodeJSON(body)
	if err != nil {
		return fmt.Errorf("%s %s answered a body that is not JSON: %v", req.Method, req.URL.Path, err)
	}
	if err := c.doc.Components.Schemas["Error"].Value.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("%s %s answered %d with a body that is not the error body: %v", req.Method, req.URL.Path, status, err)
	}
	return nil
}

func decodeJSON(b []byte) (any, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// contractTransport checks every response that passes through it and
// reports mismatches on t; the response is handed on unchanged, so the test
// can make its own assertions too.
type contractTransport struct {
	t    *testing.T
	base http.RoundTripper
	c    *contract
}

func (ct *contractTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := ct.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	if err := ct.c.check(req, res.StatusCode, res.Header, body); err != nil {
		ct.t.Errorf("contract: %v\nstatus %d, body: %.500s", err, res.StatusCode, body)
	}
	return res, nil
}

// contractClient is an HTTP client whose every response is checked against
// api/openapi.yaml, failures reported on t.
func contractClient(t *testing.T) *http.Client {
	t.Helper()
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: &contractTransport{t: t, base: transport, c: c}, Timeout: 30 * time.Second}
}

// TestContractCheckCanFail guards the guard: leaked fields, undocumented
// statuses and routes, and malformed error bodies are all reported.
func TestContractCheckCanFail(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	jsonHeader := http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req_01J9Z8X4K3M2N1P0Q9R8S7T6V5"}}
	const rid = `"request_id":"req_01J9Z8X4K3M2N1P0Q9R8S7T6V5"`
	service := `{"id":3,"name":"SMS","slug":"sms","endpoint":"/api/v1/sms","description":null,"category":"sms","method":"POST",` +
		`"parameters":{},"status":"active","builtin":false,"price":"0.50","minimum_hit_charge":"0.00","created_at":"2025-03-01T10:30:00Z","updated_at":"2025-03-01T10:30:00Z"`
	user := `{"id":7,"name":"Asha","email":"a@example.com","phone":"9876543210","role":"user","status":"active","plan":"starter",` +
		`"balance":"1.00","total_spent":"0.00","api_key":null,"webhook_url":null,"low_balance_alert":null,"collection_fee_percent":"0.00","daily_payout_limit":"200000.00","email_verified_at":null,"parent_id":null,"reseller_name":null,` +
		`"created_at":"2025-03-01T10:30:00Z","updated_at":"2025-03-01T10:30:00Z"`
	notFound := `{"success":false,"message":"Not found","error":"not_found",` + rid + `}`
	cases := []struct {
		name, method, path string
		unknown            bool
		status             int
		body               string
		ok                 bool
	}{
		{"valid service", "GET", "/api/v1/panel/services/3", false, 200, service + `}`, true},
		{"provider_key leaked", "GET", "/api/v1/panel/services/3", false, 200, service + `,"provider_key":"secret"}`, false},
		{"valid user", "GET", "/api/v1/panel/auth/me", false, 200, user + `}`, true},
		{"password leaked", "GET", "/api/v1/panel/auth/me", false, 200, user + `,"password":"$2a$10$x"}`, false},
		{"money as a number", "GET", "/api/v1/panel/auth/me", false, 200, strings.Replace(user, `"balance":"1.00"`, `"balance":1`, 1) + `}`, false},
		{"undocumented status", "GET", "/api/v1/panel/auth/me", false, 418, notFound, false},
		{"undocumented route", "GET", "/api/v1/panel/nowhere", false, 200, `{}`, false},
		{"error body with an extra field", "GET", "/api/v1/panel/services/3", false, 404, `{"success":false,"message":"x","error":"not_found","stack":"..."}`, false},
		{"unknown path, 404 error body", "GET", "/api/v1/panel/nowhere", true, 404, notFound, true},
		{"path without its last parameter", "DELETE", "/api/v1/panel/services", false, 404, notFound, false},
		{"trailing slash", "GET", "/api/v1/panel/services/", false, 200, `{"data":[],"meta":{"page":1,"per_page":20,"total":0}}`, false},
		{"unknown path, 200", "GET", "/api/v1/panel/nowhere", true, 200, `{}`, false},
		{"unknown path, not the error body", "GET", "/api/v1/panel/nowhere", true, 404, `{"message":"Not Found"}`, false},
		{"documented operation marked unknown", "GET", "/api/v1/panel/auth/me", true, 404, notFound, false},
		{"SPA asset", "GET", "/assets/index.js", false, 200, `not json`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			if tc.unknown {
				req = outsideContract(req)
			}
			err := c.check(req, tc.status, jsonHeader, []byte(tc.body))
			if tc.ok && err != nil {
				t.Errorf("want no finding, got %v", err)
			}
			if !tc.ok && err == nil {
				t.Error("mismatch not reported")
			}
		})
	}
}

// TestDocumentServedEndToEnd fetches the document and its page through the
// contract-checking client.
func TestDocumentServedEndToEnd(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		if r := e.must(e.do("GET", "/api/openapi.yaml", "", nil), 200); r.raw != string(api.OpenAPI) {
			t.Error("GET /api/openapi.yaml is not api/openapi.yaml")
		}
		if r := e.must(e.do("GET", "/api/docs", "", nil), 200); !strings.Contains(r.raw, "/api/v1/panel/auth/login") {
			t.Error("GET /api/docs does not list the operations")
		}
	})
}
