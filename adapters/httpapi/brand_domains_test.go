package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
)

// resetLink asks for a password reset of email on host (the request's Host,
// as anyone can send it) and returns the link mailed to the account (one
// per account and signin.MailEvery: each call here is another account's;
// and at most 5 a burst from one address).
func (e *env) resetLink(host, email string) string {
	e.t.Helper()
	e.must(e.onHost(host, "POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
	msgs := e.sentTo(email)
	if len(msgs) == 0 || msgs[len(msgs)-1].Subject != "Reset your password" {
		e.t.Fatalf("no reset mail to %s: %+v", email, msgs)
	}
	m := msgs[len(msgs)-1]
	if !strings.Contains(m.Text, m.Link) {
		e.t.Fatalf("mail text %q does not carry its link %q", m.Text, m.Link)
	}
	return m.Link
}

// TestBrandDomainNeedsProof (issue 43, points 2 and 7): a domain a reseller
// only claims shows no brand, registers no customer and gets no mail link,
// whatever Host a request names; several resellers may claim one host, the
// first to prove it (DNS TXT token and the platform answering through the
// host) wins, and the other is told: its claim is lost, and its check and
// its adding the host again are 409.
func TestBrandDomainNeedsProof(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, e *env) {
		owner := e.newCustomer("reseller", "starter", "0.00")
		squatter := e.newCustomer("reseller", "starter", "0.00")
		// The owner's customers, each asked a reset link once.
		var custs []customer
		for range 4 {
			custs = append(custs, e.resellersCustomer(owner, "0.00"))
		}
		cust := custs[0]
		domain := fmt.Sprintf("shop%d.example", seq.Add(1))
		const platformReset = "http://localhost:8080/reset-password?token="

		// The squatter claims the host first; the owner's claim is not blocked.
		sq := e.must(e.do("PUT", "/api/v1/panel/brand", squatter.token, map[string]any{"brand_name": "Squat", "domains": []string{domain}}), 200)
		b := e.must(e.do("PUT", "/api/v1/panel/brand", owner.token, map[string]any{"brand_name": "Acme", "domains": []string{domain}}), 200)
		st := domainState(t, b, domain)
		token, _ := st["txt_value"].(string)
		if st["state"] != "pending" || st["txt_name"] != "_paygate-verify."+domain || !strings.HasPrefix(token, "pgv_") ||
			st["challenge_url"] != "http://"+domain+":8080/.well-known/paygate-verification/"+token || st["verified_at"] != nil {
			t.Fatalf("pending claim %s", b.raw)
		}
		sqToken := domainState(t, sq, domain)["txt_value"].(string)
		if sqToken == token {
			t.Fatal("two claims share a token")
		}

		// Unproven: no brand, no customers, no links on it (nor on any Host a request names).
		if p := e.must(e.onHost(domain, "GET", "/api/v1/brand", "", nil), 200); p.body["reseller"] != false {
			t.Fatalf("unverified domain's brand %s", p.raw)
		}
		n := seq.Add(1)
		reg := e.must(e.onHost(domain, "POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "Early",
			"email": fmt.Sprintf("early%d@example.com", n), "phone": fmt.Sprintf("95%08d", n), "password": "early-password-1"}), 201)
		if u, _ := e.store.Stores().Users.ByID(t.Context(), reg.num("id")); u.ParentID != nil {
			t.Fatalf("registration on an unverified domain made a customer of %d", *u.ParentID)
		}
		for i, host := range []string{domain, "collect.attacker.example"} {
			if l := e.resetLink(host, custs[i].email); !strings.HasPrefix(l, platformReset) {
				t.Fatalf("reset asked on %s links %q before proof", host, l)
			}
		}

		// The platform answers a claim's token on that host only.
		if r := e.onHost(domain+":8080", "GET", "/.well-known/paygate-verification/"+token, "", nil); r.status != 200 || r.raw != token {
			t.Fatalf("challenge: %d %q", r.status, r.raw)
		}
		for _, c := range []struct{ host, token string }{{domain, "pgv_nope"}, {"other.example", token}, {"localhost", token}} {
			if r := e.onHost(c.host, "GET", "/.well-known/paygate-verification/"+c.token, "", nil); r.status != 404 {
				t.Fatalf("challenge %s on %s: %d %s", c.token, c.host, r.status, r.raw)
			}
		}

		verify := func(c customer) resp {
			return e.do("POST", "/api/v1/panel/brand/domains/"+domain+"/verify", c.token, nil)
		}
		// The squatter routes nothing and publishes nothing: refused, and told why.
		if r := verify(squatter); r.status != 422 || r.str("error") != "domain_not_verified" || !strings.Contains(r.str("message"), "TXT") {
			t.Fatalf("squatter's check: %d %s", r.status, r.raw)
		}
		// The owner publishes its token before pointing the host here: still refused.
		e.net.publish(domain, token)
		if r := verify(owner); r.status != 422 || !strings.Contains(r.str("message"), "not answered by this service") {
			t.Fatalf("check of an unrouted host: %d %s", r.status, r.raw)
		}
		g := e.must(e.do("GET", "/api/v1/panel/brand", owner.token, nil), 200)
		if s := domainState(t, g, domain); s["state"] != "pending" || s["checked_at"] == nil || !strings.Contains(fmt.Sprint(s["problem"]), "not answered") {
			t.Fatalf("failed check's state %s", g.raw)
		}
		if r := e.do("POST", "/api/v1/panel/brand/domains/nothere.example/verify", owner.token, nil); r.status != 404 || r.str("error") != "domain_not_found" {
			t.Fatalf("check of an unclaimed host: %d %s", r.status, r.raw)
		}
		if r := e.do("POST", "/api/v1/panel/brand/domains/"+domain+"/verify", cust.token, nil); r.status != 403 {
			t.Fatalf("a customer's check: %d %s", r.status, r.raw)
		}

		// Routed here too: the owner proves it and wins.
		e.net.route(domain)
		v := e.must(verify(owner), 200)
		if s := domainState(t, v, domain); s["state"] != "verified" || s["verified_at"] == nil || s["problem"] != nil {
			t.Fatalf("verified %s", v.raw)
		}
		e.must(verify(owner), 200) // again: as it is

		// The squatter is told: lost, and 409 on its check (even with its
		// own token published) and when it adds the host again.
		g = e.must(e.do("GET", "/api/v1/panel/brand", squatter.token, nil), 200)
		if s := domainState(t, g, domain); s["state"] != "lost" {
			t.Fatalf("squatter's claim %s", g.raw)
		}
		e.net.publish(domain, sqToken)
		if r := verify(squatter); r.status != 409 || r.str("error") != "domain_taken" {
			t.Fatalf("squatter's check after the proof: %d %s", r.status, r.raw)
		}
		e.must(e.do("PUT", "/api/v1/panel/brand", squatter.token, map[string]any{"brand_name": "Squat", "domains": []string{domain}}), 200)
		e.must(e.do("PUT", "/api/v1/panel/brand", squatter.token, map[string]any{"brand_name": "Squat", "domains": []string{}}), 200)
		if r := e.do("PUT", "/api/v1/panel/brand", squatter.token, map[string]any{"brand_name": "Squat", "domains": []string{domain}}); r.status != 409 || r.str("error") != "domain_taken" {
			t.Fatalf("squatter re-adding a verified host: %d %s", r.status, r.raw)
		}

		// Verified: the brand shows, registration makes the owner's customer,
		// and the customer's links use the domain, whatever Host asked.
		if p := e.must(e.onHost(domain, "GET", "/api/v1/brand", "", nil), 200); p.body["reseller"] != true || p.str("brand_name") != "Acme" {
			t.Fatalf("verified domain's brand %s", p.raw)
		}
		n = seq.Add(1)
		reg = e.must(e.onHost(domain, "POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "Later",
			"email": fmt.Sprintf("later%d@example.com", n), "phone": fmt.Sprintf("95%08d", n), "password": "later-password-1"}), 201)
		if u, _ := e.store.Stores().Users.ByID(t.Context(), reg.num("id")); u.ParentID == nil || *u.ParentID != owner.id {
			t.Fatalf("registration on the verified domain: parent %v", u.ParentID)
		}
		for i, host := range []string{"collect.attacker.example", "localhost:8080"} {
			if l := e.resetLink(host, custs[2+i].email); !strings.HasPrefix(l, "http://"+domain+":8080/reset-password?token=") {
				t.Fatalf("reset asked on %s links %q after proof", host, l)
			}
		}
		// Anyone else's mail stays on the platform.
		plainEmail := e.customerEmail(squatter)
		if l := e.resetLink(domain, plainEmail); !strings.HasPrefix(l, platformReset) {
			t.Fatalf("a non-customer's link %q", l)
		}
		e.ledgerClean()
	})
}
