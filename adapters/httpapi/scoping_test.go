package httpapi_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"paygate/adapters/httpapi"
)

// Scoping of resellers and their customers (issue 34, point 1; decisions
// "Resellers: customers and their scoping"): every panel route, taken from the router's own list (a new
// route is covered without touching this test), is called as a reseller,
// its customer, another reseller and that reseller's customer, with the ids
// of the others' objects in its path parameters. No foreign id answers
// anything but 404, except a 403 where the authorization table refuses the
// role the route altogether; and no list shows a row of another account.

// scopedAccount is one account of the scoping test and the ids of what it owns.
type scopedAccount struct {
	name  string
	id    uint64
	email string
	token string
	role  int      // the authz table's column: asUser or asReseller
	owns  []uint64 // ids of its objects: its user, keys, sessions, balance requests, deliveries, transfers
	// reaches are the ids of others' objects it may reach by design (a
	// reseller: its customer's account and balance requests).
	reaches []uint64
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

func TestResellerScoping(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		f := newAuthzFixture(e)
		reseller := func(name string) *scopedAccount {
			c := e.newCustomer("reseller", "starter", "50.00")
			return &scopedAccount{name: name, id: c.id, email: c.email, token: c.token, role: asReseller}
		}
		customerOf := func(name string, r *scopedAccount) *scopedAccount {
			n := seq.Add(1)
			email := fmt.Sprintf("scoped%d@example.com", n)
			id := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Customer " + name, "email": email,
				"phone": fmt.Sprintf("95%08d", n), "password": "user-password-1"}), 201).num("id")
			e.confirmInvite(email, "user-password-1")
			c := &scopedAccount{name: name, id: id, email: email, token: e.login(email, "user-password-1"), role: asUser}
			e.must(e.do("POST", panelAPI+"/api-keys", c.token, map[string]any{"name": "own key"}), 201)
			tr := e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/transfers", id), r.token,
				map[string]any{"amount": "5.00", "direction": "to_customer"}), 201).num("id")
			r.owns = append(r.owns, tr)
			c.owns = append(c.owns, tr)
			return c
		}
		r1 := reseller("reseller")
		c1 := customerOf("its customer", r1)
		r2 := reseller("another reseller")
		c2 := customerOf("another reseller's customer", r2)
		u := e.newCustomer("user", "starter", "5.00")
		plain := &scopedAccount{name: "an ordinary user", id: u.id, email: u.email, token: u.token, role: asUser}
		all := []*scopedAccount{r1, c1, r2, c2, plain}
		for _, a := range all {
			a.owns = append(a.owns, a.id, f.newTopUp(actor{token: a.token, id: a.id}), f.newDelivery(a.id))
			for _, list := range []string{"/api-keys", "/auth/sessions", "/balance-requests"} {
				for _, item := range e.must(e.do("GET", panelAPI+list+"?per_page=100", a.token, nil), 200).body["data"].([]any) {
					a.owns = append(a.owns, uint64(item.(map[string]any)["id"].(float64)))
				}
			}
		}
		// A reseller reaches its customer's account and balance requests.
		r1.reaches = []uint64{c1.id}
		for _, item := range e.must(e.do("GET", panelAPI+"/balance-requests?scope=customers&per_page=100", r1.token, nil), 200).body["data"].([]any) {
			r1.reaches = append(r1.reaches, uint64(item.(map[string]any)["id"].(float64)))
		}
		r2.reaches = []uint64{c2.id}
		for _, item := range e.must(e.do("GET", panelAPI+"/balance-requests?scope=customers&per_page=100", r2.token, nil), 200).body["data"].([]any) {
			r2.reaches = append(r2.reaches, uint64(item.(map[string]any)["id"].(float64)))
		}

		rows := map[string]authzRow{}
		for _, r := range authzTable {
			rows[r.method+" "+panelAPI+r.pattern] = r
		}
		routes := httpapi.PanelRoutes()
		checked := 0
		for _, a := range []*scopedAccount{r1, c1, r2, c2} {
			var foreign []uint64
			for _, o := range all {
				if o == a {
					continue
				}
				for _, id := range o.owns {
					if !slices.Contains(a.owns, id) && !slices.Contains(a.reaches, id) && !slices.Contains(foreign, id) {
						foreign = append(foreign, id)
					}
				}
			}
			for _, op := range routes {
				method, path, _ := strings.Cut(op, " ")
				row, ok := rows[op]
				if !ok {
					t.Errorf("%s has no row in authzTable", op)
					continue
				}
				refused := row.want[a.role] == 403
				if !pathParam.MatchString(path) {
					if method == "GET" && !refused {
						checked++
						noLeak(t, e, a, all, path)
						if path == panelAPI+"/balance-requests" {
							noLeak(t, e, a, all, path+"?scope=customers")
						}
					}
					continue
				}
				// The shared catalog (services, their docs and samples) is
				// no account's: any signed-in caller reads any service, and
				// a reseller prices any service it may sell (its own row of
				// customer_prices, keyed by the service).
				if method == "GET" && strings.HasPrefix(path, panelAPI+"/services/{") && !refused {
					continue
				}
				if strings.HasPrefix(path, panelAPI+"/customer-prices/{") && !refused {
					continue
				}
				var body any
				if method != "GET" && method != "DELETE" {
					body = row.own(f, f.actors[a.role]).body
				}
				for _, id := range foreign {
					checked++
					p := pathParam.ReplaceAllString(path, fmt.Sprint(id))
					r := e.do(method, p, a.token, body)
					switch {
					case refused && r.status == 403:
					case r.status == 404:
					default:
						t.Errorf("%s %s as %s (id of another account's object): status %d, want 404%s: %s",
							method, p, a.name, r.status, map[bool]string{true: " or 403", false: ""}[refused], short(r.raw))
					}
				}
			}
		}
		t.Logf("%d requests checked", checked)
	})
}

// noLeak lists path as a and fails when the body names another account
// (its email, or its id as a list row's user_id or customer_id), other than
// those a reaches by design (a reseller's own customer).
func noLeak(t *testing.T, e *env, a *scopedAccount, all []*scopedAccount, path string) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	r := e.do("GET", path+sep+"per_page=100", a.token, nil)
	if r.status == 403 && strings.Contains(path, "scope=customers") && a.role != asReseller {
		return
	}
	if r.status != 200 {
		// Lists that answer something else for this caller (a 422 without
		// a required filter, a 503 of a provider) show no rows either.
		if r.status >= 500 {
			t.Errorf("GET %s as %s: status %d: %s", path, a.name, r.status, r.raw)
		}
		return
	}
	for _, o := range all {
		if o == a || slices.Contains(a.reaches, o.id) {
			continue
		}
		if strings.Contains(r.raw, o.email) {
			t.Errorf("GET %s as %s shows the email of %s: %s", path, a.name, o.name, short(r.raw))
		}
		data, _ := r.body["data"].([]any)
		for _, item := range data {
			m, _ := item.(map[string]any)
			for _, k := range []string{"user_id", "customer_id", "id"} {
				if k == "id" && !strings.HasPrefix(path, panelAPI+"/customers") {
					continue // a row's own id is of its own kind, not an account's
				}
				if v, ok := m[k].(float64); ok && uint64(v) == o.id {
					b, _ := json.Marshal(m)
					t.Errorf("GET %s as %s lists a row of %s (%s %d): %s", path, a.name, o.name, k, o.id, b)
				}
			}
		}
	}
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
