package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/api"
)

// testServer builds the Echo instance without an App: building routes and
// serving the document call no handler that needs one.
func testServer() *echo.Echo {
	return NewServer(Deps{
		Log:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Assets: fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>panel</title>")}},
	})
}

func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := apischema.Load(t)
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("api/openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	if doc.Paths.Len() == 0 {
		t.Fatal("api/openapi.yaml documents no paths")
	}
	if got := doc.Components.Schemas["Error"]; got == nil {
		t.Fatal("the common error body is not the shared component schemas/Error")
	}
}

// anyMethods are the methods echo's Any registers. A path registered with
// all of them is a metered service path, whose services may use only these:
var anyMethods = []string{
	http.MethodConnect, http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodOptions,
	http.MethodPatch, http.MethodPost, echo.PROPFIND, http.MethodPut, http.MethodTrace, echo.REPORT,
}
var serviceMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}

var echoParam = regexp.MustCompile(`:([A-Za-z0-9_]+)`)

// registeredOperations lists "METHOD /path" of every route of e, with echo's
// :param written {param}, leaving out not-found and catch-all routes.
func registeredOperations(e *echo.Echo) map[string]bool {
	byPath := map[string][]string{}
	for _, r := range e.Routes() {
		if r.Method == echo.RouteNotFound || strings.HasSuffix(r.Path, "/*") {
			continue
		}
		byPath[r.Path] = append(byPath[r.Path], r.Method)
	}
	ops := map[string]bool{}
	for path, methods := range byPath {
		isAny := true
		for _, m := range anyMethods {
			isAny = isAny && slices.Contains(methods, m)
		}
		if isAny {
			methods = serviceMethods
		}
		for _, m := range methods {
			ops[m+" "+echoParam.ReplaceAllString(path, "{$1}")] = true
		}
	}
	return ops
}

func documentedOperations(doc *openapi3.T) map[string]bool {
	ops := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			ops[method+" "+path] = true
		}
	}
	return ops
}

// compareOperations names each route missing from the document and each
// documented operation that is not a route.
func compareOperations(routes, documented map[string]bool) (missing, extra []string) {
	for op := range routes {
		if !documented[op] {
			missing = append(missing, op)
		}
	}
	for op := range documented {
		if !routes[op] {
			extra = append(extra, op)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

func TestOpenAPIRoutesMatchDocument(t *testing.T) {
	doc := apischema.Load(t)
	routes := registeredOperations(testServer())
	if len(routes) < 10 {
		t.Fatalf("only %d routes found; is NewServer registering routes?", len(routes))
	}
	missing, extra := compareOperations(routes, documentedOperations(doc))
	for _, op := range missing {
		t.Errorf("route %s is not in api/openapi.yaml", op)
	}
	for _, op := range extra {
		t.Errorf("api/openapi.yaml documents %s, which is not a route", op)
	}
}

// TestRoutesComparisonCanFail guards the guard: a document missing a route,
// or listing one too many, must be reported.
func TestRoutesComparisonCanFail(t *testing.T) {
	doc := apischema.Load(t)
	routes := registeredOperations(testServer())
	documented := documentedOperations(doc)

	delete(documented, "GET /api/v1/panel/auth/me")
	delete(documented, "PUT /api/v1/{slug}")
	documented["GET /api/v1/panel/nowhere"] = true
	missing, extra := compareOperations(routes, documented)
	if want := []string{"GET /api/v1/panel/auth/me", "PUT /api/v1/{slug}"}; !slices.Equal(missing, want) {
		t.Errorf("missing = %v, want %v", missing, want)
	}
	if want := []string{"GET /api/v1/panel/nowhere"}; !slices.Equal(extra, want) {
		t.Errorf("extra = %v, want %v", extra, want)
	}
	if !routes["PATCH /api/v1/panel/users/{id}"] || routes["HEAD /api/v1/{slug}"] || routes["GET /*"] {
		t.Errorf("route normalisation is off: %v", routes)
	}
}

func TestOpenAPIDocsServed(t *testing.T) {
	e := testServer()
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}

	rec := get("/api/openapi.yaml")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/openapi.yaml = %d, want 200: %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get(echo.HeaderContentType); !strings.HasPrefix(ct, "application/yaml") {
		t.Errorf("GET /api/openapi.yaml Content-Type = %q, want application/yaml", ct)
	}
	if rec.Body.String() != string(api.OpenAPI) {
		t.Error("GET /api/openapi.yaml does not serve api/openapi.yaml")
	}

	rec = get("/api/docs")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/docs = %d, want 200: %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get(echo.HeaderContentType); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("GET /api/docs Content-Type = %q, want text/html", ct)
	}
	page := rec.Body.String()
	for _, want := range []string{"/api/v1/panel/auth/login", "/api/v1/{slug}", "X-API-Key", `id="schema-CallEnvelope"`, `href="#schema-User"`} {
		if !strings.Contains(page, want) {
			t.Errorf("GET /api/docs does not show %q", want)
		}
	}
	// The descriptions' Markdown is rendered, not shown raw.
	for _, want := range []string{"<li><strong>Panel API</strong> (<code>/api/v1/panel/...</code>)", `href="/"`} {
		if !strings.Contains(page, want) {
			t.Errorf("GET /api/docs does not show %q", want)
		}
	}
	if strings.Contains(page, "**") {
		t.Error("GET /api/docs shows raw Markdown (**)")
	}
	// Nothing is loaded from elsewhere: no scripts, stylesheets, images or fonts.
	for _, banned := range []string{"<script", "<link", "<img", "src=", "@import", "url("} {
		if strings.Contains(page, banned) {
			t.Errorf("GET /api/docs contains %q; the page must be self-contained", banned)
		}
	}
}

// TestOpenAPIErrorResponses: every 4xx and 5xx answer of the API is the
// common error body, every operation documents 500, every signed-in
// operation 401, and every operation that reads a JSON body 400, 413 and 422.
func TestOpenAPIErrorResponses(t *testing.T) {
	doc := apischema.Load(t)
	errorRef := "#/components/schemas/Error"
	for path, item := range doc.Paths.Map() {
		// Pages for people (the document, its page, the checkout page and its
		// UTR form) answer their errors as pages too.
		operator := path == "/healthz" || path == "/readyz" || path == "/api/openapi.yaml" || path == "/api/docs" || path == "/pay_{id}" ||
			path == "/pay_{id}/utr"
		for method, op := range item.Operations() {
			name := method + " " + path
			for code, r := range op.Responses.Map() {
				if code < "400" || operator {
					continue
				}
				mt := r.Value.Content.Get("application/json")
				if mt == nil || mt.Schema == nil || mt.Schema.Ref != errorRef {
					t.Errorf("%s: response %s is not the common error body %s", name, code, errorRef)
				}
			}
			if operator {
				continue
			}
			want := []string{"500"}
			if op.Security != nil && slices.ContainsFunc(*op.Security, func(r openapi3.SecurityRequirement) bool { _, ok := r["panelBearer"]; return ok }) {
				want = append(want, "401")
			}
			if op.RequestBody != nil {
				want = append(want, "400", "413", "422")
			}
			for _, code := range want {
				if op.Responses.Value(code) == nil {
					t.Errorf("%s does not document %s", name, code)
				}
			}
		}
	}
}

// TestOpenAPISchemasMatchDTOs checks each schema's properties against the
// json tags of the DTO it documents: the same names, and for response
// bodies, required exactly when the field is always written.
func TestOpenAPISchemasMatchDTOs(t *testing.T) {
	doc := apischema.Load(t)
	cases := []struct {
		schema   string
		dto      any
		response bool
		skip     []string // DTO fields the document deliberately leaves out
	}{
		{"Error", web.ErrorBody{}, true, nil},
		{"ListMeta", web.ListMeta{}, true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response, tc.skip...) })
	}
}

// TestOpenAPISchemasAcceptResponses validates bodies the handlers' own
// converters write against the documented schemas.
func TestOpenAPISchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	rid := "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5"

	cases := []struct {
		name, schema string
		body         any
	}{
		{"error", "Error", web.ErrorBody{Message: "Service not found", Error: "service_not_found", RequestID: rid}},
		{"validation error", "Error", web.ErrorBody{Message: "Invalid parameters", Error: "validation_failed", Errors: map[string][]string{"phone": {"is required"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}
}
