package httpapi_test

import (
	"fmt"
	"strings"
	"time"
)

var authzTable = []authzRow{
	{method: "POST", pattern: "/auth/login", want: public, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/login").with(map[string]any{"email": a.email, "password": a.password})
	}},
	{method: "POST", pattern: "/auth/refresh", want: public, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/refresh").with(map[string]any{"refresh_token": f.refreshToken(a)})
	}},
	{method: "POST", pattern: "/auth/logout", want: statuses{401, 204, 204, 204}, own: func(f *authzFixture, a actor) authzRequest {
		r := f.e.must(f.e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": a.email, "password": a.password}), 200)
		req := panelReq("/auth/logout").with(map[string]any{"refresh_token": r.str("refresh_token")})
		req.bearer = r.str("access_token")
		return req
	}},
	{method: "GET", pattern: "/auth/me", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/auth/me") }},
	{method: "PATCH", pattern: "/auth/me", want: signedIn, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/me").with(map[string]any{"name": "Renamed Self"})
	}},
	{method: "POST", pattern: "/auth/register", want: statuses{201, 201, 201, 201}, own: func(f *authzFixture, a actor) authzRequest {
		n := seq.Add(1)
		return panelReq("/auth/register").with(map[string]any{"name": "Newcomer", "email": fmt.Sprintf("new%d@example.com", n),
			"phone": fmt.Sprintf("97%08d", n), "password": "newcomer-password-1"})
	}},
	{method: "POST", pattern: "/auth/verify-email", want: statuses{422, 422, 422, 422}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/verify-email").with(map[string]any{"token": "not-a-valid-token"})
	}},
	{method: "POST", pattern: "/auth/forgot-password", want: public, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/forgot-password").with(map[string]any{"email": a.email})
	}},
	{method: "POST", pattern: "/auth/reset-password", want: statuses{422, 422, 422, 422}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/reset-password").with(map[string]any{"email": a.email, "token": "not-a-valid-token", "password": "another-password-1"})
	}},
	{method: "POST", pattern: "/auth/resend-verification", want: signedIn, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/auth/resend-verification")
	}},
	{method: "GET", pattern: "/auth/sessions", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/auth/sessions") }},
	{method: "DELETE", pattern: "/auth/sessions/{id}", want: statuses{401, 204, 204, 204},
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/auth/sessions/%d", f.otherSession(a)) },
		other: func(f *authzFixture) authzRequest { return panelReq("/auth/sessions/%d", f.victimSession()) }, otherWant: statuses{401, 404, 404, 404}},

	{method: "GET", pattern: "/services", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/services") }},
	{method: "GET", pattern: "/services/{id}", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/services/%d", f.service) },
		other: func(f *authzFixture) authzRequest { return panelReq("/services/%d", f.inactive) }, otherWant: statuses{401, 404, 404, 200}},
	{method: "GET", pattern: "/services/{id}/docs", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/services/%d/docs", f.service) },
		other: func(f *authzFixture) authzRequest { return panelReq("/services/%d/docs", f.inactive) }, otherWant: statuses{401, 404, 404, 200}},
	{method: "GET", pattern: "/services/{id}/samples", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/services/%d/samples", f.service) },
		other: func(f *authzFixture) authzRequest { return panelReq("/services/%d/samples", f.inactive) }, otherWant: statuses{401, 404, 404, 200}},

	{method: "GET", pattern: "/api-keys", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/api-keys") }},
	{method: "POST", pattern: "/api-keys", want: statuses{401, 201, 201, 201}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/api-keys").with(map[string]any{"name": "authz"})
	}},
	{method: "PATCH", pattern: "/api-keys/{id}", want: signedIn,
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/api-keys/%d", f.newKey(a)).with(map[string]any{"name": "renamed"})
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/api-keys/%d", f.victim.keyID).with(map[string]any{"name": "mine now"})
		}, otherWant: statuses{401, 404, 404, 404}},
	{method: "DELETE", pattern: "/api-keys/{id}", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/api-keys/%d", f.newKey(a)) },
		other: func(f *authzFixture) authzRequest { return panelReq("/api-keys/%d", f.victim.keyID) }, otherWant: statuses{401, 404, 404, 404}},
	{method: "POST", pattern: "/api-keys/{id}/rotate-secret", want: signedIn,
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/api-keys/%d/rotate-secret", f.newKey(a))
		},
		other: func(f *authzFixture) authzRequest { return panelReq("/api-keys/%d/rotate-secret", f.victim.keyID) }, otherWant: statuses{401, 404, 404, 404}},

	{method: "GET", pattern: "/transactions", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/transactions") }},
	{method: "GET", pattern: "/dashboard", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/dashboard") }},
	{method: "GET", pattern: "/plans", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/plans") }},
	{method: "PATCH", pattern: "/plans/{code}", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/plans/starter").with(map[string]any{"name": "Starter"})
	}},
	{method: "POST", pattern: "/plans", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/plans").with(map[string]any{"code": fmt.Sprintf("p%d", time.Now().UnixNano()), "name": "P",
			"monthly_price": "10.00", "monthly_calls": nil})
	}},
	{method: "GET", pattern: "/invoices", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/invoices") }},
	{method: "GET", pattern: "/statements", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/statements?month=2026-11") }},
	{method: "GET", pattern: "/invoices/upcoming", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/invoices/upcoming") }},
	{method: "GET", pattern: "/invoices/register", want: resellerOrAdmin, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/invoices/register?month=2026-11")
	}},
	// Another account's document answers as a missing one (invoices_test.go
	// reads one across accounts); here no document exists.
	{method: "GET", pattern: "/invoices/{id}", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/invoices/987654")
	}},
	{method: "GET", pattern: "/invoices/{id}/pdf", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/invoices/987654/pdf")
	}},
	// The e-invoice and the IRN are the issuer's (einvoice_test.go: the
	// recipient 403 not_issuer, B2C 409); here no document exists.
	{method: "GET", pattern: "/invoices/{id}/einvoice", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/invoices/987654/einvoice")
	}},
	{method: "PUT", pattern: "/invoices/{id}/irn", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/invoices/987654/irn").with(map[string]any{"irn": strings.Repeat("ab", 32), "ack_no": "112610036563310",
			"ack_date": "2026-12-01T10:30:00+05:30", "signed_qr": "eyJhbGciOiJSUzI1NiJ9.e30.c2ln"})
	}},
	{method: "GET", pattern: "/subscription", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/subscription") }},
	{method: "GET", pattern: "/subscription/quote", want: statuses{401, 200, 200, 403}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/subscription/quote?plan_code=starter")
	}},
	// Users and resellers on Starter stay on it; the admin, on Enterprise
	// (not public), may not switch itself.
	{method: "POST", pattern: "/subscription/change", want: statuses{401, 200, 200, 403}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/subscription/change").with(map[string]any{"plan_code": "starter"})
	}},
	{method: "GET", pattern: "/hit-logs", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/hit-logs") }},
	{method: "GET", pattern: "/payments", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/payments") }},
	{method: "GET", pattern: "/recharges", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/recharges") }},
	{method: "POST", pattern: "/payouts/authorize", want: signedIn, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/payouts/authorize").with(map[string]any{"password": a.password})
	}},
	// Sending money and saving a payee need the payout credential beside
	// the session: the session alone is refused.
	{method: "POST", pattern: "/payouts", want: statuses{401, 403, 403, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/payouts").with(map[string]any{"api_key_id": 1, "amount": "10.00", "mode": "IMPS", "reference_id": "authz-ref",
			"beneficiary": map[string]any{"name": "Asha", "account_number": "123456789012", "ifsc": "HDFC0001234"}})
		r.refused = "payout_authorization_required"
		return r
	}},
	{method: "GET", pattern: "/beneficiaries", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/beneficiaries") }},
	{method: "POST", pattern: "/beneficiaries", want: statuses{401, 403, 403, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/beneficiaries").with(map[string]any{"api_key_id": 1, "name": "Asha", "account_number": "123456789012", "ifsc": "HDFC0001234"})
		r.refused = "payout_authorization_required"
		return r
	}},
	{method: "DELETE", pattern: "/beneficiaries/{id}", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/beneficiaries/999999")
	}},
	{method: "GET", pattern: "/payouts", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/payouts") }},
	{method: "GET", pattern: "/payouts/quote", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/payouts/quote?amount=10") }},
	{method: "GET", pattern: "/payouts/{id}", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/payouts/%s", f.payoutOf(a)) },
		other: func(f *authzFixture) authzRequest { return panelReq("/payouts/%s", f.payoutOf(f.victimActor())) }, otherWant: statuses{401, 404, 404, 200}},
	{method: "GET", pattern: "/payout-limits", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/payout-limits") }},
	{method: "GET", pattern: "/account-openings", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/account-openings") }},

	{method: "GET", pattern: "/webhooks/deliveries", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/webhooks/deliveries") }},
	{method: "GET", pattern: "/webhooks/deliveries/{id}", want: signedIn,
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/webhooks/deliveries/%d", f.newDelivery(a.id))
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/webhooks/deliveries/%d", f.newDelivery(f.victim.id))
		}, otherWant: statuses{401, 404, 404, 200}},
	{method: "POST", pattern: "/webhooks/deliveries/{id}/redeliver", want: statuses{401, 202, 202, 202},
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/webhooks/deliveries/%d/redeliver", f.newDelivery(a.id))
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/webhooks/deliveries/%d/redeliver", f.newDelivery(f.victim.id))
		}, otherWant: statuses{401, 404, 404, 202}},
	{method: "POST", pattern: "/webhooks/rotate-secret", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/webhooks/rotate-secret") }},

	// A reseller's brand: resellers only (403 reseller_only for the others).
	{method: "GET", pattern: "/brand", want: statuses{401, 403, 200, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand")
		r.refused = "reseller_only"
		return r
	}},
	{method: "PUT", pattern: "/brand", want: statuses{401, 403, 200, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand").with(map[string]any{"brand_name": "Authz Brand"})
		r.refused = "reseller_only"
		return r
	}},
	{method: "GET", pattern: "/brand/logo", want: statuses{401, 403, 404, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand/logo")
		r.refused = "reseller_only"
		return r
	}},
	{method: "PUT", pattern: "/brand/logo", want: statuses{401, 403, 400, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand/logo").with(map[string]any{"logo": "not a file"}) // JSON, not multipart: 400 for the reseller
		r.refused = "reseller_only"
		return r
	}},
	{method: "DELETE", pattern: "/brand/logo", want: statuses{401, 403, 204, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand/logo")
		r.refused = "reseller_only"
		return r
	}},
	// A host the reseller does not claim: 404 domain_not_found (brand_domains_test.go proves the rest).
	{method: "POST", pattern: "/brand/domains/{host}/verify", want: statuses{401, 403, 404, 403}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/brand/domains/unclaimed.example/verify")
		r.refused = "reseller_only"
		return r
	}},
	{method: "GET", pattern: "/balance-requests", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/balance-requests") }},
	{method: "POST", pattern: "/balance-requests", want: statuses{401, 201, 201, 201}, own: func(f *authzFixture, a actor) authzRequest {
		r := panelReq("/balance-requests")
		r.form = map[string]string{"amount": "100.00", "utr_number": newUTR(), "payment_method": "upi"}
		return r
	}},
	{method: "POST", pattern: "/balance/checkout", want: statuses{401, 201, 201, 201}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/balance/checkout").with(map[string]any{"amount": "100.00"})
	}},
	{method: "GET", pattern: "/balance-requests/{id}", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/balance-requests/%d", f.newTopUp(a)) },
		other: func(f *authzFixture) authzRequest { return panelReq("/balance-requests/%d", f.victimTopUp) }, otherWant: statuses{401, 404, 404, 200}},
	{method: "GET", pattern: "/balance-requests/{id}/screenshot", want: signedIn,
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/balance-requests/%d/screenshot", f.newTopUp(a))
		},
		other: func(f *authzFixture) authzRequest { return panelReq("/balance-requests/%d/screenshot", f.victimTopUp) }, otherWant: statuses{401, 404, 404, 200}},
	// A reseller decides its customers' requests only (its own and other
	// users' are 404; resellerCustomerRows has its customer's).
	{method: "POST", pattern: "/balance-requests/{id}/approve", want: statuses{401, 403, 404, 200},
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/balance-requests/%d/approve", f.newTopUp(a)).with(map[string]any{})
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/balance-requests/%d/approve", f.newTopUp(f.victimActor())).with(map[string]any{})
		}, otherWant: statuses{401, 403, 404, 200}},
	{method: "POST", pattern: "/balance-requests/{id}/reject", want: statuses{401, 403, 404, 200},
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/balance-requests/%d/reject", f.newTopUp(a)).with(map[string]any{"admin_remarks": "not received"})
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/balance-requests/%d/reject", f.newTopUp(f.victimActor())).with(map[string]any{"admin_remarks": "not received"})
		}, otherWant: statuses{401, 403, 404, 200}},

	{method: "GET", pattern: "/payments/{id}/refunds", want: signedIn,
		own:   func(f *authzFixture, a actor) authzRequest { return panelReq("/payments/%s/refunds", f.paidPayment(a)) },
		other: func(f *authzFixture) authzRequest { return panelReq("/payments/%s/refunds", f.victimPayment()) }, otherWant: statuses{401, 404, 404, 200}},
	// Only the merchant refunds: an admin's own row refunds the victim's payment (404).
	{method: "POST", pattern: "/payments/{id}/refunds", want: statuses{401, 201, 201, 404},
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/payments/%s/refunds", f.paidPayment(a)).with(map[string]any{"amount": "0.50", "reason": "authz"})
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/payments/%s/refunds", f.victimPayment()).with(map[string]any{"amount": "0.50", "reason": "authz"})
		}, otherWant: statuses{401, 404, 404, 404}},

	{method: "PUT", pattern: "/payments/{id}/utr", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/payments/%s/utr", f.openVictimPayment()).with(map[string]any{"utr": newUTR(), "reason": "payer mistyped it"})
	}},
	{method: "GET", pattern: "/held-collections", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/held-collections") }},
	// An open payment that is not held: the admin's answer is 409 collection_not_held.
	{method: "POST", pattern: "/held-collections/{id}/retry", want: statuses{401, 403, 403, 409}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/held-collections/%s/retry", f.openVictimPayment()).with(map[string]any{})
	}},

	{method: "POST", pattern: "/reconciliation/statements", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return authzRequest{path: panelAPI + "/reconciliation/statements", statement: unmatchedStatement()}
	}},
	{method: "GET", pattern: "/reconciliation/lines", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/reconciliation/lines?status=unmatched")
	}},
	{method: "POST", pattern: "/reconciliation/lines/{id}/dismiss", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/reconciliation/lines/%d/dismiss", f.unmatchedLine()).with(map[string]any{"note": "not ours"})
	}},
	{method: "POST", pattern: "/reconciliation/lines/{id}/match", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/reconciliation/lines/%d/match", f.unmatchedLine()).with(map[string]any{"payment_id": f.openVictimPayment()})
	}},

	{method: "GET", pattern: "/audit-logs", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/audit-logs") }},

	// A reseller's selling prices, markup and commissions: resellers only.
	{method: "GET", pattern: "/customer-prices", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/customer-prices") }},
	{method: "GET", pattern: "/customer-prices/preview", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/customer-prices/preview?markup=20")
	}},
	{method: "PUT", pattern: "/customer-prices/{service_id}", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/customer-prices/%d", f.service).with(map[string]any{"price": "99.0000"})
	}},
	{method: "DELETE", pattern: "/customer-prices/{service_id}", want: statuses{401, 403, 204, 403}, own: func(f *authzFixture, a actor) authzRequest {
		if a.token != "" && a.id == f.actors[asReseller].id {
			f.e.must(f.e.do("PUT", panelAPI+fmt.Sprintf("/customer-prices/%d", f.service), a.token, map[string]any{"price": "99.0000"}), 200)
		}
		return panelReq("/customer-prices/%d", f.service)
	}},
	{method: "PUT", pattern: "/customer-markup", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/customer-markup").with(map[string]any{"default_markup": "10.00"})
	}},
	{method: "GET", pattern: "/commissions", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/commissions") }},

	// The platform's record for admins, a reseller's own for a reseller.
	{method: "GET", pattern: "/settings/billing", want: resellerOrAdmin, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/settings/billing") }},
	{method: "PUT", pattern: "/settings/billing", want: resellerOrAdmin, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/settings/billing").with(map[string]any{"legal_name": "Paygate", "address": "Mumbai", "state": "27"})
	}},
	{method: "GET", pattern: "/settings/payee", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/settings/payee") }},
	// The fixture's settings have no UPI address: 404 once signed in.
	{method: "GET", pattern: "/settings/payee/upi-qr.png", want: statuses{401, 404, 404, 404}, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/settings/payee/upi-qr.png")
	}},
	{method: "GET", pattern: "/gst/states", want: signedIn, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/gst/states") }},

	{method: "GET", pattern: "/users", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/users") }},
	{method: "POST", pattern: "/users", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users").with(newUserBody("active"))
	}},
	{method: "GET", pattern: "/users/{id}", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/users/%d", f.victim.id) }},
	{method: "PATCH", pattern: "/users/{id}", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users/%d", f.newUser("active")).with(map[string]any{"name": "Renamed"})
	}},
	{method: "DELETE", pattern: "/users/{id}", want: adminDelete, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/users/%d", f.newUser("active")) }},
	{method: "POST", pattern: "/users/{id}/activate", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users/%d/activate", f.newUser("pending"))
	}},
	{method: "POST", pattern: "/users/{id}/block", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/users/%d/block", f.newUser("active")) }},
	{method: "GET", pattern: "/users/{id}/subscription", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users/%d/subscription", f.newUser("active"))
	}},
	{method: "PATCH", pattern: "/users/{id}/subscription", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users/%d/subscription", f.newUser("active")).with(map[string]any{"plan_code": "starter"})
	}},
	{method: "POST", pattern: "/users/{id}/balance-adjustments", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/users/%d/balance-adjustments", f.victim.id).with(map[string]any{"type": "credit", "amount": "1.00", "description": "authz"})
	}},

	{method: "POST", pattern: "/services", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/services").with(newServiceBody())
	}},
	{method: "PATCH", pattern: "/services/{id}", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/services/%d", f.newService()).with(map[string]any{"name": "Renamed"})
	}},
	{method: "DELETE", pattern: "/services/{id}", want: adminDelete, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/services/%d", f.newService()) }},
	{method: "PUT", pattern: "/services/{id}/docs", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/services/%d/docs", f.service).with(docBody())
	}},
	{method: "GET", pattern: "/services/{id}/pricing", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/services/%d/pricing", f.service) }},
	{method: "POST", pattern: "/services/{id}/pricing", want: adminCreate, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/services/%d/pricing", f.newService()).with(map[string]any{"user_price": "0.5000"})
	}},
	{method: "PATCH", pattern: "/pricing/{id}", want: adminOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/pricing/%d", f.victimPrice).with(map[string]any{"user_price": "0.3000"})
	}},
	{method: "DELETE", pattern: "/pricing/{id}", want: adminDelete, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/pricing/%d", f.newPrice())
	}},

	// A reseller's customers (decisions "Resellers: customers and their scoping"): own is a customer of the
	// reseller actor; other is the victim, an ordinary user (404 to a
	// reseller); everyone but a reseller is refused before any id is read.
	{method: "POST", pattern: "/customers", want: resellerCreate, own: func(f *authzFixture, a actor) authzRequest {
		n := seq.Add(1)
		return panelReq("/customers").with(map[string]any{"name": "Shop", "email": fmt.Sprintf("shop%d@example.com", n), "phone": fmt.Sprintf("96%08d", n)})
	}},
	{method: "GET", pattern: "/customers", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest { return panelReq("/customers") }},
	{method: "GET", pattern: "/reseller/dashboard", want: resellerOnly, own: func(f *authzFixture, a actor) authzRequest {
		return panelReq("/reseller/dashboard?from=2026-01-01&to=2026-01-31")
	}},
	customerRow("GET", "/customers/{id}", "", resellerOnly, nil),
	customerRow("POST", "/customers/{id}/block", "/block", resellerOnly, map[string]any{}),
	customerRow("POST", "/customers/{id}/activate", "/activate", resellerOnly, map[string]any{}),
	customerRow("PATCH", "/customers/{id}/limits", "/limits", resellerOnly, map[string]any{"daily_payout_limit": "100.00"}),
	customerRow("GET", "/customers/{id}/api-keys", "/api-keys", resellerOnly, nil),
	customerRow("GET", "/customers/{id}/hit-logs", "/hit-logs", resellerOnly, nil),
	customerRow("GET", "/customers/{id}/transactions", "/transactions", resellerOnly, nil),
	customerRow("GET", "/customers/{id}/transfers", "/transfers", resellerOnly, nil),
	customerRow("POST", "/customers/{id}/transfers", "/transfers", resellerCreate, map[string]any{"amount": "0.01", "direction": "to_customer"}),
}

var resellerCreate = statuses{401, 403, 201, 403}

// customerRow is the row of a /customers/{id}... route: own is a customer
// of the reseller actor, other the victim (not the reseller's).
func customerRow(method, pattern, suffix string, want statuses, body any) authzRow {
	return authzRow{method: method, pattern: pattern, want: want,
		own: func(f *authzFixture, a actor) authzRequest {
			return panelReq("/customers/%d%s", f.resellerCustomer(), suffix).with(body)
		},
		other: func(f *authzFixture) authzRequest {
			return panelReq("/customers/%d%s", f.victim.id, suffix).with(body)
		}, otherWant: statuses{401, 403, 404, 403}}
}

// resellerCustomer is a new active customer of the reseller actor (it
// confirmed its invite).
func (f *authzFixture) resellerCustomer() uint64 {
	f.e.t.Helper()
	n := seq.Add(1)
	email := fmt.Sprintf("shop%d@example.com", n)
	id := f.e.must(f.e.do("POST", panelAPI+"/customers", f.actors[asReseller].token, map[string]any{
		"name": "Shop", "email": email, "phone": fmt.Sprintf("96%08d", n)}), 201).num("id")
	f.e.confirmInvite(email, "shop-password-1")
	return id
}
