package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"paygate/adapters/httpapi"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// Authorization of the panel API: one row per registered panel route, with
// the status each kind of caller gets. TestAuthzTableCoversEveryPanelRoute
// fails when a route has no row, so a new route cannot ship without its
// authorization checked.
//
// To add a route: append a row to authzTable with its method, its path
// after /api/v1/panel as in api/openapi.yaml ("/things/{id}"), a request
// builder for the caller's own resource (make a fresh one when the call
// changes or deletes it), and the expected statuses (anonymous, user,
// reseller, admin; see signedIn, adminOnly, ...). When callers own the
// resource (keys, balance requests, ...), also give other (a resource of
// authzFixture.victim) and otherWant (404 for non-admins: another user's
// resource is "not found", never "forbidden").

// actor is one kind of caller. The anonymous actor has no token and
// addresses the admin's resources (with the admin's credentials on the
// public routes).
type actor struct {
	name            string
	token           string
	id, keyID       uint64
	email, password string
	key, secret     string // the user's and reseller's API key
}

// statuses are the expected answers for anonymous, user, reseller, admin.
type statuses [4]int

// authzFixture is the data every row works on: three signed-in callers, a
// victim whose resources the others must not reach, an active service with
// docs and a default price, an inactive one, and a pricing row of the victim.
type authzFixture struct {
	e                 *env
	actors            [4]actor // anonymous, user, reseller, admin
	victim            customer
	service, inactive uint64
	victimPrice       uint64
	victimTopUp       uint64 // a pending balance request of the victim, with a screenshot
}

type authzRequest struct {
	path string
	body any
	form map[string]string // sent as multipart/form-data instead of body
	// statement: a bank statement CSV uploaded as the multipart field file.
	statement []byte
	// bearer, when set, is the access token a signed-in actor sends instead
	// of its own (a logout ends the session of the token it comes with).
	bearer string
	// refused, when set, is the error code of its 403 instead of forbidden.
	refused string
}

type authzRow struct {
	method, pattern string
	own             func(f *authzFixture, a actor) authzRequest
	want            statuses
	other           func(f *authzFixture) authzRequest // nil: no per-owner resource
	otherWant       statuses
}

const (
	anonymous = iota
	asUser
	asReseller
	asAdmin
)

var (
	public      = statuses{200, 200, 200, 200}
	signedIn    = statuses{401, 200, 200, 200}
	adminOnly   = statuses{401, 403, 403, 200}
	adminCreate = statuses{401, 403, 403, 201}
	adminDelete = statuses{401, 403, 403, 204}
	// resellerOnly: a reseller's own selling prices and commissions.
	resellerOnly    = statuses{401, 403, 200, 403}
	resellerOrAdmin = statuses{401, 403, 200, 200}
)

const panelAPI = "/api/v1/panel"

func panelReq(format string, a ...any) authzRequest {
	return authzRequest{path: panelAPI + fmt.Sprintf(format, a...)}
}

func (r authzRequest) with(body any) authzRequest { r.body = body; return r }

func TestAuthzTableCoversEveryPanelRoute(t *testing.T) {
	rows := map[string]bool{}
	for _, r := range authzTable {
		op := r.method + " " + panelAPI + r.pattern
		if rows[op] {
			t.Errorf("authzTable has two rows for %s", op)
		}
		rows[op] = true
	}
	routes := httpapi.PanelRoutes()
	if len(routes) < 20 {
		t.Fatalf("only %d panel routes found: %v", len(routes), routes)
	}
	for _, op := range routes {
		if !rows[op] {
			t.Errorf("panel route %s has no row in authzTable (adapters/httpapi/authz_test.go)", op)
		}
	}
	for op := range rows {
		if !slices.Contains(routes, op) {
			t.Errorf("authzTable has a row for %s, which is not a route", op)
		}
	}
}

func TestPanelAuthorization(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		f := newAuthzFixture(e)
		for _, row := range authzTable {
			for i, a := range f.actors {
				owner := a
				if i == anonymous {
					owner = f.actors[asAdmin]
				}
				f.expect(a, row.method, row.own(f, owner), row.want[i], "own")
			}
			if row.other == nil {
				continue
			}
			for i, a := range f.actors {
				f.expect(a, row.method, row.other(f), row.otherWant[i], "another user's")
			}
		}
	})
}

// expect makes one request as a and checks the status, and for refusals
// the error code.
func (f *authzFixture) expect(a actor, method string, req authzRequest, want int, what string) {
	e := f.e
	e.t.Helper()
	var r resp
	token := a.token
	if req.bearer != "" && token != "" {
		token = req.bearer
	}
	switch {
	case req.statement != nil:
		r = e.importStatement(token, "statement.csv", req.statement, nil)
	case req.form != nil:
		r = e.upload(token, req.form)
	default:
		r = e.do(method, req.path, token, req.body)
	}
	if r.status != want {
		e.t.Errorf("%s %s (%s resource) as %s: status %d, want %d: %s", method, req.path, what, a.name, r.status, want, r.raw)
		return
	}
	code := map[int]string{401: "unauthenticated", 403: "forbidden"}[want]
	if want == 403 && req.refused != "" {
		code = req.refused
	}
	if code != "" && r.str("error") != code {
		e.t.Errorf("%s %s as %s: error %q, want %q", method, req.path, a.name, r.str("error"), code)
	}
}

func newAuthzFixture(e *env) *authzFixture {
	e.t.Helper()
	f := &authzFixture{e: e}
	u := e.newCustomer("user", "starter", "5.00")
	r := e.newCustomer("reseller", "starter", "5.00")
	f.victim = e.newCustomer("user", "starter", "5.00")
	me := e.must(e.do("GET", panelAPI+"/auth/me", e.admin, nil), 200)
	f.actors = [4]actor{
		{name: "anonymous"},
		{name: "user", token: u.token, id: u.id, keyID: u.keyID, email: u.email, password: "user-password-1", key: u.key, secret: u.secret},
		{name: "reseller", token: r.token, id: r.id, keyID: r.keyID, email: r.email, password: "user-password-1", key: r.key, secret: r.secret},
		{name: "admin", token: e.admin, id: me.num("id"), email: adminEmail, password: adminPassword},
	}
	f.service = e.newService("authz-open", "0.1000")
	e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/services/%d/docs", f.service), e.admin, docBody()), 200)
	f.inactive = e.newService("authz-hidden", "0.1000")
	e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/services/%d/docs", f.inactive), e.admin, docBody()), 200)
	e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/services/%d", f.inactive), e.admin, map[string]any{"status": "inactive"}), 200)
	f.victimPrice = e.must(e.do("POST", fmt.Sprintf(panelAPI+"/services/%d/pricing", f.service), e.admin,
		map[string]any{"user_id": f.victim.id, "user_price": "0.2000"}), 201).num("id")
	f.victimTopUp = f.newTopUp(f.victimActor())
	return f
}

// paidPayment is a paid payment of 1.00 of a's (the victim's for the admin,
// who has no key); anonymous callers address the victim's.
func (f *authzFixture) paidPayment(a actor) string {
	f.e.t.Helper()
	if a.secret == "" {
		return f.victimPayment()
	}
	return f.e.paidPayment(customer{id: a.id, token: a.token, key: a.key, secret: a.secret}, "1.00")
}

// payoutOf is a payout of 1.00 of a's, credited first with what it costs
// (the victim's for the admin, who has no key, and for anonymous callers).
func (f *authzFixture) payoutOf(a actor) string {
	f.e.t.Helper()
	c := customer{id: a.id, token: a.token, key: a.key, secret: a.secret}
	if a.secret == "" {
		c = f.victim
	}
	f.e.must(f.e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/balance-adjustments", c.id), f.e.admin,
		map[string]any{"type": "credit", "amount": "6.00", "description": "payout fee"}), 201)
	return f.e.must(f.e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout(fmt.Sprintf("authz-%d", seq.Add(1)), "1.00", "123456781234")), 200).
		body["data"].(map[string]any)["payout_id"].(string)
}

func (f *authzFixture) victimPayment() string { return f.e.paidPayment(f.victim, "1.00") }

// openVictimPayment is a created payment of 7.00 of the victim's, which a
// statement line of 7.00 may be matched to.
func (f *authzFixture) openVictimPayment() string {
	f.e.t.Helper()
	return f.e.must(f.e.gw(f.victim, "POST", "/api/v1/payment/create", map[string]any{"amount": "7.00", "currency": "INR",
		"customer_id": "cust", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
}

// unmatchedStatement is a statement with one credit of 7.00 whose UTR names
// nothing, new on every call.
func unmatchedStatement() []byte {
	return []byte(fmt.Sprintf("Date,Narration,Ref No,Debit,Credit,Balance\n01/04/2024,UPI/CR/%012d/PAYER,%012d,,7.00,107.00\n",
		900000000000+seq.Add(1), 900000000000+seq.Add(1)))
}

// unmatchedLine imports unmatchedStatement and returns its line's id.
func (f *authzFixture) unmatchedLine() uint64 {
	f.e.t.Helper()
	f.e.must(f.e.importStatement(f.e.admin, "s.csv", unmatchedStatement(), nil), 201)
	l := f.e.must(f.e.do("GET", panelAPI+"/reconciliation/lines?status=unmatched&per_page=1", f.e.admin, nil), 200)
	return uint64(l.body["data"].([]any)[0].(map[string]any)["id"].(float64))
}

// newDelivery writes a pending event delivery of userID straight to the outbox.
func (f *authzFixture) newDelivery(userID uint64) uint64 {
	f.e.t.Helper()
	// A payload as the ledger writes it: every event in the outbox is checked against its schema (checkOutbox).
	e, err := webhook.NewEvent(userID, webhook.BalanceLow, map[string]any{
		"user_id": userID, "balance": "1.00", "threshold": "5.00", "txn_id": "TXN" + strings.Repeat("0", 38) + "1",
	}, time.Now())
	if err != nil {
		f.e.t.Fatal(err)
	}
	d := webhook.NewDelivery(e, webhook.ToWebhook, "https://hooks.example/x")
	err = f.e.store.WithinTx(context.Background(), func(ctx context.Context, s store.Stores) error {
		return s.Webhooks.Insert(ctx, e, []*webhook.Delivery{d})
	})
	if err != nil {
		f.e.t.Fatal(err)
	}
	return d.ID
}

func (f *authzFixture) victimActor() actor {
	return actor{name: "victim", token: f.victim.token, id: f.victim.id}
}

// newTopUp makes a pending balance request of a, with a PNG screenshot.
func (f *authzFixture) newTopUp(a actor) uint64 {
	f.e.t.Helper()
	r := f.e.upload(a.token, map[string]string{"amount": "100.00", "utr_number": newUTR(), "payment_method": "upi"},
		part{field: "screenshot", filename: "receipt.png", contentType: "image/png", data: pngFile(f.e.t)})
	return f.e.must(r, 201).num("id")
}

// refreshToken signs a in afresh.
func (f *authzFixture) refreshToken(a actor) string {
	f.e.t.Helper()
	r := f.e.must(f.e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": a.email, "password": a.password}), 200)
	return r.str("refresh_token")
}

// otherSession signs a in once more and returns the id of that new session
// (not the one of a's token).
func (f *authzFixture) otherSession(a actor) uint64 {
	f.e.t.Helper()
	if a.token == "" { // anonymous: any id; the answer is 401 before any lookup
		return 1
	}
	f.refreshToken(a)
	return f.sessionOf(a.token)
}

// victimSession is the id of one of the victim's sessions.
func (f *authzFixture) victimSession() uint64 { return f.sessionOf(f.victim.token) }

func (f *authzFixture) sessionOf(token string) uint64 {
	f.e.t.Helper()
	r := f.e.must(f.e.do("GET", panelAPI+"/auth/sessions?per_page=100", token, nil), 200)
	for _, item := range r.body["data"].([]any) {
		if sess := item.(map[string]any); sess["current"] != true {
			return uint64(sess["id"].(float64))
		}
	}
	for _, item := range r.body["data"].([]any) {
		return uint64(item.(map[string]any)["id"].(float64))
	}
	f.e.t.Fatalf("no session: %s", r.raw)
	return 0
}

// newKey makes a key of a.
func (f *authzFixture) newKey(a actor) uint64 {
	f.e.t.Helper()
	return f.e.must(f.e.do("POST", panelAPI+"/api-keys", a.token, map[string]any{"name": "authz"}), 201).num("id")
}

func (f *authzFixture) newUser(status string) uint64 {
	f.e.t.Helper()
	return f.e.must(f.e.do("POST", panelAPI+"/users", f.e.admin, newUserBody(status)), 201).num("id")
}

func (f *authzFixture) newService() uint64 {
	f.e.t.Helper()
	return f.e.must(f.e.do("POST", panelAPI+"/services", f.e.admin, newServiceBody()), 201).num("id")
}

// newPrice makes a default pricing row on a new service.
func (f *authzFixture) newPrice() uint64 {
	f.e.t.Helper()
	return f.e.must(f.e.do("POST", fmt.Sprintf(panelAPI+"/services/%d/pricing", f.newService()), f.e.admin,
		map[string]any{"user_price": "0.1000"}), 201).num("id")
}

func newUserBody(status string) map[string]any {
	n := seq.Add(1)
	return map[string]any{
		"name": "Authz", "email": fmt.Sprintf("authz%d@example.com", n), "phone": fmt.Sprintf("97%08d", n),
		"password": "user-password-1", "role": "user", "status": status,
	}
}

func newServiceBody() map[string]any {
	n := seq.Add(1)
	return map[string]any{"name": "Authz", "slug": fmt.Sprintf("authz-%d", n), "category": "test", "provider_url": "https://example.com/x"}
}

func docBody() map[string]any {
	return map[string]any{
		"endpoint": "/api/v1/x", "method": "POST", "description": "Test", "request_params": map[string]any{},
		"response_example": map[string]any{}, "error_codes": map[string]any{},
	}
}

// TestRevokedAccountsLoseTheirTokens: blocking, soft-deleting or demoting a
// user takes effect on their very next request, with the tokens they hold.
func TestRevokedAccountsLoseTheirTokens(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("revoked", "0.1000")
		signIn := func(email, password string) (access, refresh string) {
			r := e.must(e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": email, "password": password}), 200)
			return r.str("access_token"), r.str("refresh_token")
		}
		expect := func(r resp, status int, code string) {
			t.Helper()
			if r.status != status || r.str("error") != code {
				t.Fatalf("status %d error %q, want %d %q: %s", r.status, r.str("error"), status, code, r.raw)
			}
		}
		me := func(token string) resp { return e.do("GET", panelAPI+"/auth/me", token, nil) }
		refresh := func(token string) resp {
			return e.do("POST", panelAPI+"/auth/refresh", "", map[string]any{"refresh_token": token})
		}
		login := func(email string) resp {
			return e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": email, "password": "user-password-1"})
		}

		// Blocked: both tokens stop at once, and stay dead after reactivation.
		b := e.newCustomer("user", "starter", "5.00")
		access, rt := signIn(b.email, "user-password-1")
		e.must(me(access), 200)
		e.must(e.call(b, "revoked", map[string]any{}), 200)
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/block", b.id), e.admin, nil), 200)
		expect(me(access), 401, "unauthenticated")
		expect(me(b.token), 401, "unauthenticated")
		expect(refresh(rt), 401, "invalid_refresh_token")
		expect(login(b.email), 403, "account_not_active")
		expect(e.call(b, "revoked", map[string]any{}), 403, "account_not_active")
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/activate", b.id), e.admin, nil), 200)
		expect(refresh(rt), 401, "invalid_refresh_token")
		e.must(login(b.email), 200)

		// Set back to pending by a patch: the same.
		p := e.newCustomer("reseller", "starter", "0.00")
		access, rt = signIn(p.email, "user-password-1")
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", p.id), e.admin, map[string]any{"status": "pending"}), 200)
		expect(me(access), 401, "unauthenticated")
		expect(refresh(rt), 401, "invalid_refresh_token")

		// Soft-deleted: tokens, login and keys all fail as unknown.
		d := e.newCustomer("user", "starter", "5.00")
		access, rt = signIn(d.email, "user-password-1")
		e.must(e.do("DELETE", fmt.Sprintf(panelAPI+"/users/%d", d.id), e.admin, nil), 204)
		expect(me(access), 401, "unauthenticated")
		expect(refresh(rt), 401, "invalid_refresh_token")
		expect(login(d.email), 401, "invalid_credentials")
		expect(e.call(d, "revoked", map[string]any{}), 401, "invalid_credentials")

		// Demoted admin: the role is read per request, not from the token.
		body := newUserBody("active")
		body["role"] = "admin"
		a := e.must(e.do("POST", panelAPI+"/users", e.admin, body), 201)
		access, _ = signIn(body["email"].(string), "user-password-1")
		e.must(e.do("GET", panelAPI+"/users", access, nil), 200)
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", a.num("id")), e.admin, map[string]any{"role": "user"}), 200)
		expect(e.do("GET", panelAPI+"/users", access, nil), 403, "forbidden")
		if r := e.must(me(access), 200); r.str("role") != "user" {
			t.Fatalf("demoted admin's role %q", r.str("role"))
		}
	})
}

// TestListsAreScopedToTheCaller: a non-admin's lists hold only their own
// rows whatever filter they send; an admin sees everyone's or one user's.
func TestListsAreScopedToTheCaller(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("scoped", "0.1000")
		a := e.newCustomer("user", "starter", "5.00")
		b := e.newCustomer("reseller", "starter", "5.00")
		e.must(e.call(a, "scoped", map[string]any{}), 200)
		for range 2 {
			e.must(e.call(b, "scoped", map[string]any{}), 200)
		}
		// Rows per user: transactions = the top-up + one debit per call.
		own := map[uint64]struct{ tx, hits int }{a.id: {2, 1}, b.id: {3, 2}}

		for _, c := range []customer{a, b} {
			other := a
			if c.id == a.id {
				other = b
			}
			for _, q := range []string{"", fmt.Sprintf("?user_id=%d", other.id), fmt.Sprintf("?user_id=%d&per_page=100", other.id)} {
				for list, want := range map[string]int{"/transactions": own[c.id].tx, "/hit-logs": own[c.id].hits} {
					r := e.must(e.do("GET", panelAPI+list+q, c.token, nil), 200)
					rows := r.body["data"].([]any)
					for _, row := range rows {
						if id := uint64(row.(map[string]any)["user_id"].(float64)); id != c.id {
							t.Errorf("%s%s as user %d lists a row of user %d", list, q, c.id, id)
						}
					}
					if total := r.body["meta"].(map[string]any)["total"].(float64); len(rows) != want || int(total) != want {
						t.Errorf("%s%s as user %d: %d rows, total %v, want %d", list, q, c.id, len(rows), total, want)
					}
				}
				if got, want := keyIDs(e, c.token, q), keyIDs(e, c.token, ""); !slices.Equal(got, want) || slices.Contains(got, other.keyID) {
					t.Errorf("/api-keys%s as user %d: keys %v, want their own %v", q, c.id, got, want)
				}
			}
			// Another user's key as a filter finds nothing.
			r := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/hit-logs?api_key_id=%d", other.keyID), c.token, nil), 200)
			if n := len(r.body["data"].([]any)); n != 0 {
				t.Errorf("hit-logs filtered by another user's key: %d rows", n)
			}
		}

		// The admin: one user's rows with user_id, everyone's without.
		for _, c := range []customer{a, b} {
			for list, want := range map[string]int{"/transactions": own[c.id].tx, "/hit-logs": own[c.id].hits} {
				r := e.must(e.do("GET", fmt.Sprintf(panelAPI+"%s?user_id=%d", list, c.id), e.admin, nil), 200)
				rows := r.body["data"].([]any)
				for _, row := range rows {
					if id := uint64(row.(map[string]any)["user_id"].(float64)); id != c.id {
						t.Errorf("admin %s?user_id=%d lists a row of user %d", list, c.id, id)
					}
				}
				if len(rows) != want {
					t.Errorf("admin %s?user_id=%d: %d rows, want %d", list, c.id, len(rows), want)
				}
			}
		}
		all := e.must(e.do("GET", panelAPI+"/hit-logs", e.admin, nil), 200)
		if n := len(all.body["data"].([]any)); n != 3 {
			t.Errorf("admin sees %d hit log rows, want 3", n)
		}

		// Inactive services are the admin's alone, whatever status is asked for.
		hidden := e.newService("scoped-hidden", "0.1000")
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/services/%d", hidden), e.admin, map[string]any{"status": "inactive"}), 200)
		for _, q := range []string{"", "?status=inactive"} {
			for _, row := range e.must(e.do("GET", panelAPI+"/services"+q, a.token, nil), 200).body["data"].([]any) {
				if row.(map[string]any)["status"] != "active" {
					t.Errorf("/services%s as a user lists %v", q, row)
				}
			}
		}
		if n := e.must(e.do("GET", panelAPI+"/services?status=inactive", e.admin, nil), 200).body["meta"].(map[string]any)["total"]; n != float64(1) {
			t.Errorf("admin lists %v inactive services, want 1", n)
		}
	})
}

// TestUnknownPanelPathsAre404: a path or method the panel does not have is
// 404 with the error body for every caller, signed in or not.
func TestUnknownPanelPathsAre404(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		for _, tok := range []string{"", "not-a-token", c.token, e.admin} {
			for _, rt := range [][2]string{
				{"GET", panelAPI + "/nothing-here"}, {"GET", panelAPI + "/"}, {"POST", panelAPI + "/users/1/nothing"},
				{"PUT", panelAPI + "/auth/me"}, {"DELETE", panelAPI + "/services"}, {"GET", panelAPI + "/auth/login"},
				{"GET", "/api/nothing"},
			} {
				r := e.doUnknown(rt[0], rt[1], tok, nil)
				if r.status != 404 || r.str("error") != "not_found" {
					t.Errorf("%s %s with token %.10q: %d %s", rt[0], rt[1], tok, r.status, r.raw)
				}
			}
			// /api/v1/panel itself reads as the metered path of the reserved slug "panel".
			if r := e.do("GET", panelAPI, tok, nil); r.status != 404 {
				t.Errorf("GET %s with token %.10q: %d %s", panelAPI, tok, r.status, r.raw)
			}
		}
	})
}

func keyIDs(e *env, token, query string) []uint64 {
	e.t.Helper()
	var ids []uint64
	for _, k := range e.must(e.do("GET", panelAPI+"/api-keys"+query, token, nil), 200).body["data"].([]any) {
		ids = append(ids, uint64(k.(map[string]any)["id"].(float64)))
	}
	return ids
}
