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

	// A reseller's brand (resale/brand.go): public, by the request's Host.
	e.GET("/api/v1/brand", s.resale.PublicBrand)
	e.GET("/api/v1/brand/logo", s.resale.PublicBrandLogo)
	// A claimed domain's token, answered on that host (the domain check's proof).
	e.GET("/.well-known/paygate-verification/:token", s.resale.DomainChallenge)

	p := e.Group("/api/v1/panel")
	p.POST("/auth/login", s.accounts.Login)
	p.POST("/auth/refresh", s.accounts.Refresh)
	p.POST("/auth/register", s.accounts.Register)
	p.POST("/auth/verify-email", s.accounts.VerifyEmail)
	p.POST("/auth/forgot-password", s.accounts.ForgotPassword)
	p.POST("/auth/reset-password", s.accounts.ResetPassword)

	in := p.Group("", s.accounts.SignedIn)
	in.POST("/auth/logout", s.accounts.Logout)
	in.GET("/auth/me", s.accounts.Me)
	in.PATCH("/auth/me", s.accounts.PatchMe)
	in.POST("/auth/resend-verification", s.accounts.ResendVerification)
	in.GET("/auth/sessions", s.accounts.ListSessions)
	in.DELETE("/auth/sessions/:id", s.accounts.RevokeSession)

	// A reseller's brand page (resale/brand.go).
	in.GET("/brand", s.resale.GetBrand)
	in.PUT("/brand", s.resale.PutBrand)
	in.GET("/brand/logo", s.resale.GetBrandLogo)
	in.PUT("/brand/logo", s.resale.PutBrandLogo)
	in.DELETE("/brand/logo", s.resale.DeleteBrandLogo)
	in.POST("/brand/domains/:host/verify", s.resale.VerifyBrandDomain)

	in.GET("/services", s.catalog.ListServices)
	in.GET("/services/:id", s.catalog.GetService)
	in.GET("/services/:id/docs", s.catalog.GetDoc)
	in.GET("/services/:id/samples", s.catalog.GetSamples)

	in.GET("/api-keys", s.accounts.ListKeys)
	in.POST("/api-keys", s.accounts.CreateKey)
	in.PATCH("/api-keys/:id", s.accounts.PatchKey)
	in.DELETE("/api-keys/:id", s.accounts.RevokeKey)
	in.POST("/api-keys/:id/rotate-secret", s.accounts.RotateKey)

	in.GET("/balance-requests", s.money.ListTopUps)
	in.POST("/balance-requests", s.money.CreateTopUp)
	in.GET("/balance-requests/:id", s.money.GetTopUp)
	in.GET("/balance-requests/:id/screenshot", s.money.TopUpScreenshot)
	in.POST("/balance/checkout", s.money.CreateBalanceCheckout)

	in.GET("/transactions", s.metering.ListTransactions)
	in.GET("/hit-logs", s.metering.ListHits)
	in.GET("/dashboard", s.metering.Dashboard)

	in.GET("/plans", s.billing.ListPlans)
	in.GET("/subscription", s.billing.GetSubscription)
	in.GET("/subscription/quote", s.billing.QuoteSubscription)
	in.POST("/subscription/change", s.billing.ChangeSubscription)

	in.GET("/invoices", s.billing.ListInvoices)
	in.GET("/invoices/upcoming", s.billing.UpcomingInvoice)
	in.GET("/invoices/register", s.billing.InvoiceRegister) // admins and resellers: their own documents' GSTR-1
	in.GET("/invoices/:id", s.billing.GetInvoice)
	in.GET("/invoices/:id/pdf", s.billing.InvoicePDF)
	in.GET("/invoices/:id/einvoice", s.billing.GetEInvoice)
	in.PUT("/invoices/:id/irn", s.billing.RecordIRN)
	in.GET("/statements", s.money.GetStatement)

	admin := in.Group("", web.AdminOnly)
	admin.GET("/users", s.accounts.ListUsers)
	admin.POST("/users", s.accounts.CreateUser)
	admin.GET("/users/:id", s.accounts.GetUser)
	admin.PATCH("/users/:id", s.accounts.PatchUser)
	admin.DELETE("/users/:id", s.accounts.DeleteUser)
	admin.POST("/users/:id/activate", s.accounts.SetUserStatus(user.StatusActive))
	admin.POST("/users/:id/block", s.accounts.SetUserStatus(user.StatusBlocked))
	admin.POST("/users/:id/balance-adjustments", s.accounts.AdjustBalance)
	admin.GET("/users/:id/subscription", s.billing.GetUserSubscription)
	admin.PATCH("/users/:id/subscription", s.billing.SetSubscription)
	admin.POST("/plans", s.billing.CreatePlan)
	admin.PATCH("/plans/:code", s.billing.PatchPlan)

	admin.POST("/services", s.catalog.CreateService)
	admin.PATCH("/services/:id", s.catalog.PatchService)
	admin.DELETE("/services/:id", s.catalog.DeleteService)
	admin.PUT("/services/:id/docs", s.catalog.PutDoc)
	admin.GET("/services/:id/pricing", s.catalog.ListPricing)
	admin.POST("/services/:id/pricing", s.catalog.CreatePricing)
	admin.PATCH("/pricing/:id", s.catalog.PatchPricing)
	admin.DELETE("/pricing/:id", s.catalog.DeletePricing)

	in.GET("/payments", s.gateway.ListPayments)
	in.GET("/payments/:id/refunds", s.gateway.ListPaymentRefunds)
	in.POST("/payments/:id/refunds", s.gateway.PanelRefundPayment)
	admin.PUT("/payments/:id/utr", s.gateway.CorrectPaymentUTR)
	admin.GET("/held-collections", s.gateway.ListHeldCollections)
	admin.POST("/held-collections/:id/retry", s.gateway.RetryHeldCollection)
	in.GET("/recharges", s.gateway.ListRecharges)
	in.GET("/account-openings", s.gateway.ListAccountOpenings)
	in.GET("/payouts", s.payouts.ListPayouts)
	in.GET("/payouts/quote", s.payouts.PayoutQuote)
	in.POST("/payouts/authorize", s.payouts.AuthorizePayouts)
	in.POST("/payouts", s.payouts.PanelPayout)
	in.GET("/beneficiaries", s.payouts.ListBeneficiaries)
	in.POST("/beneficiaries", s.payouts.CreateBeneficiary)
	in.DELETE("/beneficiaries/:id", s.payouts.DeleteBeneficiary)
	in.GET("/payouts/:id", s.payouts.GetPayout)
	admin.GET("/payout-limits", s.payouts.ListPayoutLimits)

	in.GET("/webhooks/deliveries", s.events.ListDeliveries)
	in.GET("/webhooks/deliveries/:id", s.events.GetDelivery)
	in.POST("/webhooks/deliveries/:id/redeliver", s.events.Redeliver)
	in.POST("/webhooks/rotate-secret", s.events.RotateWebhookSecret)

	admin.GET("/audit-logs", s.accounts.ListAudit)

	// A reseller's customers (decisions "Resellers: customers and their scoping"): resellers only; an id
	// that is not the caller's customer is 404. Balance requests are
	// decided by admins, and by a reseller for its customers.
	deciders := in.Group("", web.AdminOrReseller)
	deciders.POST("/balance-requests/:id/approve", s.money.ApproveTopUp)
	deciders.POST("/balance-requests/:id/reject", s.money.RejectTopUp)
	rs := in.Group("", web.ResellerOnly)
	rs.POST("/customers", s.resale.CreateCustomer)
	rs.GET("/customers", s.resale.ListCustomers)
	rs.GET("/customers/:id", s.resale.GetCustomer)
	rs.POST("/customers/:id/block", s.resale.SetCustomerStatus(user.StatusBlocked))
	rs.POST("/customers/:id/activate", s.resale.SetCustomerStatus(user.StatusActive))
	rs.PATCH("/customers/:id/limits", s.resale.SetCustomerLimits)
	rs.GET("/customers/:id/api-keys", s.resale.ListCustomerKeys)
	rs.GET("/customers/:id/hit-logs", s.resale.ListCustomerHits)
	rs.GET("/customers/:id/transactions", s.resale.ListCustomerTransactions)
	rs.GET("/customers/:id/transfers", s.resale.ListCustomerTransfers)
	rs.POST("/customers/:id/transfers", s.resale.CreateTransfer)
	rs.GET("/reseller/dashboard", s.resale.ResellerDashboard)
	// A reseller's selling prices, default markup and commissions (403 for
	// anyone else).
	in.GET("/customer-prices", s.resale.ListCustomerPrices)
	in.GET("/customer-prices/preview", s.resale.PreviewCustomerPrices)
	in.PUT("/customer-prices/:service_id", s.resale.PutCustomerPrice)
	in.DELETE("/customer-prices/:service_id", s.resale.DeleteCustomerPrice)
	in.PUT("/customer-markup", s.resale.PutCustomerMarkup)
	in.GET("/commissions", s.resale.ListCommissions)

	// The invoices' parties: the supplier's details (admin: the platform's;
	// reseller: its own; others 403) and the state codes a billing profile
	// (PATCH /auth/me) picks from.
	in.GET("/settings/billing", s.billing.GetBillingSettings)
	in.PUT("/settings/billing", s.billing.PutBillingSettings)
	in.GET("/gst/states", s.billing.ListGSTStates)
	// Where to pay in: the platform's bank account and UPI address (Add balance).
	in.GET("/settings/payee", s.billing.GetPayee)
	in.GET("/settings/payee/upi-qr.png", s.billing.GetPayeeUPIQR)

	admin.POST("/reconciliation/statements", s.money.ImportStatement)
	admin.GET("/reconciliation/lines", s.money.ListStatementLines)
	admin.POST("/reconciliation/lines/:id/match", s.money.MatchStatementLine)
	admin.POST("/reconciliation/lines/:id/dismiss", s.money.DismissStatementLine)
	// Unknown panel paths are 404 for everyone. A group with middleware adds
	// a catch-all that runs its middleware (so an anonymous caller would get
	// 401); these, registered after every group, replace those catch-alls.
	e.RouteNotFound("/api/v1/panel", echo.NotFoundHandler)
	e.RouteNotFound("/api/v1/panel/*", echo.NotFoundHandler)

	// Gateway (Authorization: Bearer <API key>): billed through built-in services.
	e.POST("/api/v1/payment/create", s.gateway.CreatePayment)
	e.GET("/api/v1/payment/status", s.gateway.PaymentStatus)
	e.POST("/api/v1/payment/refund", s.gateway.RefundPayment)
	e.POST("/api/v1/account/verify", s.gateway.VerifyAccount)
	e.POST("/api/v1/recharge/mobile", s.gateway.RechargeMobile)
	e.GET("/api/v1/recharge/status", s.gateway.RechargeStatus)
	e.GET("/api/v1/recharge/operators", s.gateway.RechargeOperators)
	e.GET("/api/v1/recharge/circles", s.gateway.RechargeCircles)
	e.POST("/api/v1/account/open", s.gateway.OpenAccount)
	e.GET("/api/v1/account/open/status", s.gateway.AccountOpenStatus)
	e.POST("/api/v1/payout/transfer", s.payouts.PayoutTransfer)
	e.GET("/api/v1/payout/status", s.payouts.PayoutStatus)
	e.GET("/api/v1/transaction/list", s.gateway.GatewayTransactions)

	// Hosted checkout page, PUBLIC_BASE_URL/<payment_id> ("pay_" + ULID).
	e.GET("/pay_:id", s.gateway.CheckoutPage)
	e.GET("/pay_:id/status", s.gateway.CheckoutStatus)
	e.POST("/pay_:id/pay", s.gateway.CompleteCheckout(true))
	e.POST("/pay_:id/fail", s.gateway.CompleteCheckout(false))
	e.POST("/pay_:id/utr", s.gateway.SubmitUTR)

	// Metered service calls: one endpoint per registered service slug.
	e.Any("/api/v1/:slug", s.metering.CallService)

	// The API's contract and a page rendering it (docs.go).
	e.GET("/api/openapi.yaml", openAPIDocument)
	e.GET("/api/docs", apiDocs)

	// The panel, and index.html for client routes (spa.go).
	if assets != nil {
		e.GET("/*", s.spa(assets))
	}
}
