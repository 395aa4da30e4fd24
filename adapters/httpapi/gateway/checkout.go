package gateway

import (
	"bytes"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// The hosted checkout page, PUBLIC_BASE_URL/<payment_id>: server-rendered,
// no framework; a small inline script (allowed by its CSP nonce) polls the
// page's status endpoint so the status changes without a reload. The sandbox buttons post same-origin
// forms (cross-site posts are refused).

type checkoutView struct {
	Found       bool
	Title       string
	Message     string
	PaymentID   string
	Payee       string
	Amount      string // Indian grouping, "1,23,456.50"
	Status      string
	Open        bool
	Sandbox     bool // the payer picks the outcome with two buttons
	TestMode    bool // the payment is not live (livemode false): the page says so
	UPIURL      template.URL
	QRDataURL   template.URL
	MerchantURL string
	StatusURL   string
	ActionBase  string
	Nonce       string // the CSP nonce of the inline script
	AsksUTR     bool   // upi_direct: the payer reports the UTR after paying
	UTR         string // the UTR already reported (awaiting confirmation)
	UTRValue    string // what the payer typed, shown again beside UTRError
	UTRError    string // why the typed UTR was refused
	Held        bool   // confirmed, but the merchant's balance cannot hold it yet
}

var checkoutTemplate = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;color:#1b1f24}
main{max-width:420px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0001}
h1{font-size:1.2rem;margin:0 0 4px}.amount{font-size:2rem;font-weight:700;margin:12px 0}
.muted{color:#5f6b7a;font-size:.9rem}.status{display:inline-block;padding:2px 10px;border-radius:10px;background:#eef;font-weight:600}
.status-success{background:#d8f5dd}.status-failed,.status-expired{background:#fde2e1}
img.qr{display:block;margin:16px auto;width:220px;height:220px;image-rendering:pixelated}
.actions{display:flex;gap:12px;margin-top:16px}.actions form{flex:1}
button,a.button{box-sizing:border-box;width:100%;padding:12px;border:0;border-radius:8px;font-size:1rem;cursor:pointer}
.pay{background:#1a7f37;color:#fff}.fail{background:#cf222e;color:#fff}a.button{display:block;text-align:center;background:#eef;color:#1b1f24;text-decoration:none}
.utr label{display:block;font-weight:600;margin-top:16px}.utr input{box-sizing:border-box;width:100%;padding:12px;font-size:1.1rem;letter-spacing:.1em;border:1px solid #8c959f;border-radius:8px;margin:4px 0 12px}
.utr input:focus,button:focus,a:focus{outline:3px solid #0969da;outline-offset:2px}.error{color:#a40e26;font-weight:600}
.testmode{margin:-28px -28px 20px;padding:10px 28px;border-radius:12px 12px 0 0;background:#ffd33d;color:#3b2300;font-weight:700;text-align:center}
@media (max-width:460px){main{margin:0;border-radius:0;padding:20px}.testmode{margin:-20px -20px 16px;padding:10px 20px;border-radius:0}}
</style>
</head>
<body>
<main>
{{if .TestMode}}<div class="testmode" id="test-mode" role="status">Test mode: a sandbox payment, no money moves</div>{{end}}
{{if .Found}}
<h1>Pay {{.Payee}}</h1>
<div class="muted">Payment {{.PaymentID}}</div>
<div class="amount">₹{{.Amount}}</div>
<div>Status: <span id="status" class="status status-{{.Status}}">{{.Status}}</span></div>
{{if .Open}}
<div id="open">
{{if .Held}}<p id="delayed" role="status"><strong>Confirmation delayed.</strong> Your payment was received, but the merchant's account cannot take it yet, so its confirmation is delayed. Please do not pay again: it completes as soon as the merchant's account allows.</p>{{else}}
<img class="qr" alt="UPI QR code for this payment" src="{{.QRDataURL}}">
<p><a class="button" href="{{.UPIURL}}">Pay with a UPI app</a></p>{{end}}
{{if .Sandbox}}
<p class="muted">Sandbox: no money moves. Choose the outcome.</p>
<div class="actions">
<form method="post" action="{{.ActionBase}}/pay"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="{{.ActionBase}}/fail"><button class="fail" type="submit">Fail</button></form>
</div>
{{else if .AsksUTR}}
{{if .UTR}}{{if not .Held}}<p id="awaiting" role="status"><strong>Awaiting confirmation.</strong> We have your UTR {{.UTR}}; the payment completes once it appears in our bank statement. If this UTR is wrong, ask the merchant to correct it.</p>{{end}}
{{if .UTRError}}<p id="utr-error" class="error" role="alert">{{.UTRError}}</p>{{end}}
{{else if not .Held}}
<form method="post" action="{{.ActionBase}}/utr" class="utr" novalidate>
<label for="utr">After paying, enter the UTR</label>
<p id="utr-hint" class="muted">The 12-digit UPI reference number (UTR) your UPI app shows for this payment.</p>
{{if .UTRError}}<p id="utr-error" class="error" role="alert">{{.UTRError}}</p>{{end}}
<input id="utr" name="utr" type="text" inputmode="numeric" pattern="[0-9]{12}" maxlength="12" minlength="12" required autocomplete="off" value="{{.UTRValue}}" aria-describedby="utr-hint{{if .UTRError}} utr-error{{end}}"{{if .UTRError}} aria-invalid="true" autofocus{{end}}>
<button class="pay" type="submit">Submit UTR</button>
</form>
{{end}}
{{else}}
<p class="muted">Scan the code or open your UPI app; this page updates when the payment completes.</p>
{{end}}
</div>
{{end}}
{{else}}
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{end}}
{{if .MerchantURL}}<p><a href="{{.MerchantURL}}">Back to the merchant</a></p>{{end}}
</main>
{{if .Open}}
<script nonce="{{.Nonce}}">
(function(){
  var el=document.getElementById("status"), url={{.StatusURL}};
  function poll(){
    fetch(url,{headers:{Accept:"application/json"}}).then(function(r){return r.json()}).then(function(p){
      if(!p.status)return;
      el.textContent=p.status; el.className="status status-"+p.status;
      if(p.status==="success"||p.status==="failed"||p.status==="expired"){
        var o=document.getElementById("open"); if(o)o.remove(); return;
      }
      setTimeout(poll,3000);
    }).catch(function(){setTimeout(poll,5000)});
  }
  setTimeout(poll,3000);
})();
</script>
{{end}}
</body>
</html>
`))

func (h *Handler) renderCheckout(c echo.Context, status int, v checkoutView) error {
	var buf bytes.Buffer
	v.Nonce = web.NewNonce()
	if err := checkoutTemplate.Execute(&buf, v); err != nil {
		return err
	}
	web.PageHeaders(c, cspCheckout(v.Nonce), "no-referrer")
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(status, buf.Bytes())
}

// checkoutError renders the clear page of an unknown (404) or expired (410) payment.
func (h *Handler) checkoutError(c echo.Context, err error) error {
	if errs.KindOf(err) == errs.NotFound {
		return h.renderCheckout(c, http.StatusNotFound, checkoutView{Title: "Payment not found",
			Message: "There is no payment at this address. Check the link you were given."})
	}
	if errors.Is(err, gateway.ErrMerchantUnavailable) {
		return h.renderCheckout(c, http.StatusConflict, checkoutView{Title: "Payment unavailable",
			Message: "This merchant cannot take payments at the moment. Please contact the merchant."})
	}
	return err
}

func paymentIDParam(c echo.Context) string { return "pay_" + c.Param("id") }

func (h *Handler) checkoutView(co *gateway.Checkout) (int, checkoutView, error) {
	p := &co.Payment
	v := checkoutView{
		Found: true, Title: "Pay " + co.PayeeName, PaymentID: p.PublicID, Payee: co.PayeeName,
		Amount: IndianAmount(p.Amount.StringFixed(2)), Status: string(p.Status),
		Open: !p.Status.Final(), Sandbox: co.Sandbox, TestMode: !p.Livemode, MerchantURL: merchantOrigin(p.CallbackURL),
		StatusURL: "/" + p.PublicID + "/status", ActionBase: "/" + p.PublicID, AsksUTR: co.AsksUTR,
		Held: p.CreditHeldAt != nil && !p.Status.Final(),
	}
	if p.UTR != nil {
		v.UTR = *p.UTR
	}
	if p.Purpose == payment.PurposeBalance {
		// Back to the panel's Add balance, which shows how this payment went.
		v.MerchantURL = h.app.Gateway.PublicBaseURL() + "/balance-requests?payment=" + url.QueryEscape(p.PublicID)
	}
	if p.Status == payment.StatusExpired {
		return http.StatusGone, checkoutView{Title: "Payment expired", MerchantURL: v.MerchantURL, TestMode: v.TestMode,
			Message: "This payment of ₹" + v.Amount + " to " + co.PayeeName + " expired before it was completed. Ask the merchant for a new payment link."}, nil
	}
	if v.Open {
		intent := co.Intent
		png, err := web.QRPNG(intent, 256)
		if err != nil {
			return 0, v, err
		}
		v.UPIURL = template.URL(intent)
		v.QRDataURL = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
	}
	return http.StatusOK, v, nil
}

// merchantOrigin is the way back to the merchant: the callback URL's origin.
func merchantOrigin(callback string) string {
	u, err := url.Parse(callback)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/"
}

func (h *Handler) CheckoutPage(c echo.Context) error {
	co, err := h.app.Gateway.OpenCheckout(c.Request().Context(), paymentIDParam(c))
	if err != nil {
		return h.checkoutError(c, err)
	}
	status, v, err := h.checkoutView(co)
	if err != nil {
		return err
	}
	return h.renderCheckout(c, status, v)
}

type checkoutStatusResponse struct {
	PaymentID string `json:"payment_id"`
	Status    string `json:"status"`
	Amount    string `json:"amount"`
}

func (h *Handler) CheckoutStatus(c echo.Context) error {
	p, err := h.app.Gateway.CheckoutStatus(c.Request().Context(), paymentIDParam(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, checkoutStatusResponse{PaymentID: p.PublicID, Status: string(p.Status), Amount: inr.Format2(p.Amount)})
}

// completeCheckout handles the sandbox buttons: a same-origin form post
// (a cross-site one is refused), then back to the page (303).
func (h *Handler) CompleteCheckout(success bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !sameOrigin(c.Request(), h.app.Gateway.PublicBaseURL()) {
			return errs.E(errs.Forbidden, "cross_site_request", "Cross-site form posts are not accepted")
		}
		co, err := h.app.Gateway.CompleteCheckout(c.Request().Context(), paymentIDParam(c), success)
		if err != nil {
			if errs.KindOf(err) == errs.Conflict || errs.KindOf(err) == errs.NotFound {
				// Already decided, not opened yet, merchant unavailable, or
				// unknown: the page says which.
				return c.Redirect(http.StatusSeeOther, "/"+paymentIDParam(c))
			}
			return err
		}
		return c.Redirect(http.StatusSeeOther, "/"+co.Payment.PublicID)
	}
}

// submitUTR takes the payer's UTR from the page's form (field utr): a
// same-origin post, then back to the page (303). A malformed UTR (422), one
// another payment or balance request holds (409), or a second UTR (409:
// only an admin corrects it) renders the page again with the reason.
func (h *Handler) SubmitUTR(c echo.Context) error {
	if !sameOrigin(c.Request(), h.app.Gateway.PublicBaseURL()) {
		return errs.E(errs.Forbidden, "cross_site_request", "Cross-site form posts are not accepted")
	}
	id, utr := paymentIDParam(c), c.FormValue("utr")
	co, err := h.app.Gateway.SubmitUTR(c.Request().Context(), id, utr)
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/"+co.Payment.PublicID)
	}
	var status int
	var msg string
	switch {
	case errors.Is(err, payment.ErrUTRTaken):
		status, msg = http.StatusConflict, "This UTR was already given for another payment or balance request. Check the 12-digit number in your UPI app."
	case errors.Is(err, payment.ErrUTRSubmitted):
		status, msg = http.StatusConflict, "A UTR was already submitted for this payment and cannot be changed here. If it is wrong, ask the merchant to correct it."
	case errs.KindOf(err) == errs.Invalid:
		status, msg = http.StatusUnprocessableEntity, "Enter the 12 digits of the UTR (UPI reference number), without spaces."
	case errors.Is(err, payment.ErrFinal), errors.Is(err, payment.ErrExpired):
		return c.Redirect(http.StatusSeeOther, "/"+id) // the page says how it ended
	default:
		return h.checkoutError(c, err)
	}
	co, oerr := h.app.Gateway.OpenCheckout(c.Request().Context(), id)
	if oerr != nil {
		return h.checkoutError(c, oerr)
	}
	_, v, verr := h.checkoutView(co)
	if verr != nil {
		return verr
	}
	if r := []rune(utr); len(r) > 40 {
		utr = string(r[:40])
	}
	v.UTRValue, v.UTRError = utr, msg
	return h.renderCheckout(c, status, v)
}

// sameOrigin accepts a post whose Origin (or, failing that, Sec-Fetch-Site)
// says it came from this site — the host the request reached, or the one of
// PUBLIC_BASE_URL (behind a proxy that rewrites Host). A request with
// neither is refused: browsers send one of them with every form post, and
// a script without them (curl) could otherwise act for the payer.
func sameOrigin(r *http.Request, publicBase string) bool {
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		if err != nil {
			return false
		}
		if b, err := url.Parse(publicBase); err == nil && b.Host != "" && strings.EqualFold(u.Host, b.Host) {
			return true
		}
		return strings.EqualFold(u.Host, r.Host)
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	}
	return false
}

// IndianAmount groups a non-negative fixed-point amount the Indian way:
// "123456.50" → "1,23,456.50" (the last three digits, then pairs).
func IndianAmount(s string) string {
	intPart, frac, hasFrac := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	if len(intPart) > 3 {
		head, tail := intPart[:len(intPart)-3], intPart[len(intPart)-3:]
		var groups []string
		for len(head) > 2 {
			groups = append([]string{head[len(head)-2:]}, groups...)
			head = head[:len(head)-2]
		}
		if head != "" {
			groups = append([]string{head}, groups...)
		}
		intPart = strings.Join(append(groups, tail), ",")
	}
	if neg {
		intPart = "-" + intPart
	}
	if hasFrac {
		return intPart + "." + frac
	}
	return intPart
}

// cspCheckout is the hosted checkout page's, with the nonce of its one
// inline script (the status poll): the QR code is a data: image, the poll
// reads this origin, the sandbox buttons post here.
func cspCheckout(nonce string) string {
	return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'unsafe-inline'; img-src data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}
