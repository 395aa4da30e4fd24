package httpapi

import (
	"io/fs"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
)

// routes lists the whole HTTP API at a glance.
func (s *server) routes(e *echo.Echo, assets fs.FS) {
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.serveMetrics)

	// A reseller's brand (brand.go): public, by the request's Host.
	e.GET("/api/v1/brand", s.publicBrand)
	e.GET("/api/v1/brand/logo", s.publicBrandLogo)
	// A claimed domain's token, answered on that host (the domain check's proof).
	e.GET("/.well-known/paygate-verification/:token", s.domainChallenge)

	p := e.Group("/api/v1/panel")
	p.POST("/auth/login", s.login)
	p.POST("/auth/refresh", s.refresh)
	p.POST("/auth/register", s.register)
	p.POST("/auth/verify-email", s.verifyEmail)
	p.POST("/auth/forgot-password", s.forgotPassword)
	p.POST("/auth/reset-password", s.resetPassword)

	in := p.Group("", s.signedIn)
	in.POST("/auth/logout", s.logout)
	in.GET("/auth/me", s.me)
	in.PATCH("/auth/me", s.patchMe)
	in.POST("/auth/resend-verification", s.resendVerification)
	in.GET("/auth/sessions", s.listSessions)
	in.DELETE("/auth/sessions/:id", s.revokeSession)

	// A reseller's brand page (brand.go).
	in.GET("/brand", s.getBrand)
	in.PUT("/brand", s.putBrand)
	in.GET("/brand/logo", s.getBrandLogo)
	in.PUT("/brand/logo", s.putBrandLogo)
	in.DELETE("/brand/logo", s.deleteBrandLogo)
	in.POST("/brand/domains/:host/verify", s.verifyBrandDomain)

	in.GET("/services", s.listServices)
	in.GET("/services/:id", s.getService)
	in.GET("/services/:id/docs", s.getDoc)
	in.GET("/services/:id/samples", s.getSamples)

	in.GET("/api-keys", s.listKeys)
	in.POST("/api-keys", s.createKey)
	in.PATCH("/api-keys/:id", s.patchKey)
	in.DELETE("/api-keys/:id", s.revokeKey)
	in.POST("/api-keys/:id/rotate-secret", s.rotateKey)

	in.GET("/balance-requests", s.listTopUps)
	in.POST("/balance-requests", s.createTopUp)
	in.GET("/balance-requests/:id", s.getTopUp)
	in.GET("/balance-requests/:id/screenshot", s.topUpScreenshot)
	in.POST("/balance/checkout", s.createBalanceCheckout)

	in.GET("/transactions", s.listTransactions)
	in.GET("/hit-logs", s.listHits)
	in.GET("/dashboard", s.dashboard)

	in.GET("/plans", s.listPlans)
	in.GET("/subscription", s.getSubscription)
	in.GET("/subscription/quote", s.quoteSubscription)
	in.POST("/subscription/change", s.changeSubscription)

	in.GET("/invoices", s.listInvoices)
	in.GET("/invoices/upcoming", s.upcomingInvoice)
	in.GET("/invoices/register", s.invoiceRegister) // admins and resellers: their own documents' GSTR-1
	in.GET("/invoices/:id", s.getInvoice)
	in.GET("/invoices/:id/pdf", s.invoicePDF)
	in.GET("/invoices/:id/einvoice", s.getEInvoice)
	in.PUT("/invoices/:id/irn", s.recordIRN)
	in.GET("/statements", s.getStatement)

	admin := in.Group("", web.AdminOnly)
	admin.GET("/users", s.listUsers)
	admin.POST("/users", s.createUser)
	admin.GET("/users/:id", s.getUser)
	admin.PATCH("/users/:id", s.patchUser)
	admin.DELETE("/users/:id", s.deleteUser)
	admin.POST("/users/:id/activate", s.setUserStatus(user.StatusActive))
	admin.POST("/users/:id/block", s.setUserStatus(user.StatusBlocked))
	admin.POST("/users/:id/balance-adjustments", s.adjustBalance)
	admin.GET("/users/:id/subscription", s.getUserSubscription)
	admin.PATCH("/users/:id/subscription", s.setSubscription)
	admin.POST("/plans", s.createPlan)
	admin.PATCH("/plans/:code", s.patchPlan)

	admin.POST("/services", s.createService)
	admin.PATCH("/services/:id", s.patchService)
	admin.DELETE("/services/:id", s.deleteService)
	admin.PUT("/services/:id/docs", s.putDoc)
	admin.GET("/services/:id/pricing", s.listPricing)
	admin.POST("/services/:id/pricing", s.createPricing)
	admin.PATCH("/pricing/:id", s.patchPricing)
	admin.DELETE("/pricing/:id", s.deletePricing)

	in.GET("/payments", s.listPayments)
	in.GET("/payments/:id/refunds", s.listPaymentRefunds)
	in.POST("/payments/:id/refunds", s.panelRefundPayment)
	admin.PUT("/payments/:id/utr", s.correctPaymentUTR)
	admin.GET("/held-collections", s.listHeldCollections)
	admin.POST("/held-collections/:id/retry", s.retryHeldCollection)
	in.GET("/recharges", s.listRecharges)
	in.GET("/account-openings", s.listAccountOpenings)
	in.GET("/payouts", s.listPayouts)
	in.GET("/payouts/quote", s.payoutQuote)
	in.POST("/payouts/authorize", s.authorizePayouts)
	in.POST("/payouts", s.panelPayout)
	in.GET("/beneficiaries", s.listBeneficiaries)
	in.POST("/beneficiaries", s.createBeneficiary)
	in.DELETE("/beneficiaries/:id", s.deleteBeneficiary)
	in.GET("/payouts/:id", s.getPayout)
	admin.GET("/payout-limits", s.listPayoutLimits)

	in.GET("/webhooks/deliveries", s.listDeliveries)
	in.GET("/webhooks/deliveries/:id", s.getDelivery)
	in.POST("/webhooks/deliveries/:id/redeliver", s.redeliver)
	in.POST("/webhooks/rotate-secret", s.rotateWebhookSecret)

	admin.GET("/audit-logs", s.listAudit)

	// A reseller's customers (decisions "Resellers: customers and their scoping"): resellers only; an id
	// that is not the caller's customer is 404. Balance requests are
	// decided by admins, and by a reseller for its customers.
	deciders := in.Group("", web.AdminOrReseller)
	deciders.POST("/balance-requests/:id/approve", s.approveTopUp)
	deciders.POST("/balance-requests/:id/reject", s.rejectTopUp)
	rs := in.Group("", web.ResellerOnly)
	rs.POST("/customers", s.createCustomer)
	rs.GET("/customers", s.listCustomers)
	rs.GET("/customers/:id", s.getCustomer)
	rs.POST("/customers/:id/block", s.setCustomerStatus(user.StatusBlocked))
	rs.POST("/customers/:id/activate", s.setCustomerStatus(user.StatusActive))
	rs.PATCH("/customers/:id/limits", s.setCustomerLimits)
	rs.GET("/customers/:id/api-keys", s.listCustomerKeys)
	rs.GET("/customers/:id/hit-logs", s.listCustomerHits)
	rs.GET("/customers/:id/transactions", s.listCustomerTransactions)
	rs.GET("/customers/:id/transfers", s.listCustomerTransfers)
	rs.POST("/customers/:id/transfers", s.createTransfer)
	rs.GET("/reseller/dashboard", s.resellerDashboard)
	// A reseller's selling prices, default markup and commissions (403 for
	// anyone else).
	in.GET("/customer-prices", s.listCustomerPrices)
	in.GET("/customer-prices/preview", s.previewCustomerPrices)
	in.PUT("/customer-prices/:service_id", s.putCustomerPrice)
	in.DELETE("/customer-prices/:service_id", s.deleteCustomerPrice)
	in.PUT("/customer-markup", s.putCustomerMarkup)
	in.GET("/commissions", s.listCommissions)

	// The invoices' parties: the supplier's details (admin: the platform's;
	// reseller: its own; others 403) and the state codes a billing profile
	// (PATCH /auth/me) picks from.
	in.GET("/settings/billing", s.getBillingSettings)
	in.PUT("/settings/billing", s.putBillingSettings)
	in.GET("/gst/states", s.listGSTStates)
	// Where to pay in: the platform's bank account and UPI address (Add balance).
	in.GET("/settings/payee", s.getPayee)
	in.GET("/settings/payee/upi-qr.png", s.getPayeeUPIQR)

	admin.POST("/reconciliation/statements", s.importStatement)
	admin.GET("/reconciliation/lines", s.listStatementLines)
	admin.POST("/reconciliation/lines/:id/match", s.matchStatementLine)
	admin.POST("/reconciliation/lines/:id/dismiss", s.dismissStatementLine)
	// Unknown panel paths are 404 for everyone. A group with middleware adds
	// a catch-all that runs its middleware (so an anonymous caller would get
	// 401); these, registered after every group, replace those catch-alls.
	e.RouteNotFound("/api/v1/panel", echo.NotFoundHandler)
	e.RouteNotFound("/api/v1/panel/*", echo.NotFoundHandler)

	// Gateway (Authorization: Bearer <API key>): billed through built-in services.
	e.POST("/api/v1/payment/create", s.createPayment)
	e.GET("/api/v1/payment/status", s.paymentStatus)
	e.POST("/api/v1/payment/refund", s.refundPayment)
	e.POST("/api/v1/account/verify", s.verifyAccount)
	e.POST("/api/v1/recharge/mobile", s.rechargeMobile)
	e.GET("/api/v1/recharge/status", s.rechargeStatus)
	e.GET("/api/v1/recharge/operators", s.rechargeOperators)
	e.GET("/api/v1/recharge/circles", s.rechargeCircles)
	e.POST("/api/v1/account/open", s.openAccount)
	e.GET("/api/v1/account/open/status", s.accountOpenStatus)
	e.POST("/api/v1/payout/transfer", s.payoutTransfer)
	e.GET("/api/v1/payout/status", s.payoutStatus)
	e.GET("/api/v1/transaction/list", s.gatewayTransactions)

	// Hosted checkout page, PUBLIC_BASE_URL/<payment_id> ("pay_" + ULID).
	e.GET("/pay_:id", s.checkoutPage)
	e.GET("/pay_:id/status", s.checkoutStatus)
	e.POST("/pay_:id/pay", s.completeCheckout(true))
	e.POST("/pay_:id/fail", s.completeCheckout(false))
	e.POST("/pay_:id/utr", s.submitUTR)

	// Metered service calls: one endpoint per registered service slug.
	e.Any("/api/v1/:slug", s.callService)

	s.openapiRoutes(e)
	if assets != nil {
		s.spa(e, assets) // spa.go: the panel, and index.html for client routes
	}
}
