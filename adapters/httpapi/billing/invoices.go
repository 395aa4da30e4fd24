package billing

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/billing/invoice"
	"paygate/core/billing/issuing"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Tax invoices and credit notes (docs/decisions.md, "Tax invoices").

type invoicePartyResponse struct {
	LegalName string  `json:"legal_name"`
	Address   string  `json:"address"`
	State     string  `json:"state"`
	GSTIN     *string `json:"gstin"`
}

type invoiceLineResponse struct {
	Description string  `json:"description"`
	Resold      bool    `json:"resold"`
	SAC         string  `json:"sac"`
	Quantity    int64   `json:"quantity"`
	UnitPrice   *string `json:"unit_price"`
	Gross       string  `json:"gross"`
	Taxable     string  `json:"taxable"`
	CGST        string  `json:"cgst"`
	SGST        string  `json:"sgst"`
	IGST        string  `json:"igst"`
}

type invoiceTotalsResponse struct {
	Gross   string `json:"gross"`
	Taxable string `json:"taxable"`
	CGST    string `json:"cgst"`
	SGST    string `json:"sgst"`
	IGST    string `json:"igst"`
}

type invoiceResponse struct {
	ID             *uint64               `json:"id"`
	UserID         uint64                `json:"user_id"`
	IssuerID       *uint64               `json:"issuer_id"`
	Kind           string                `json:"kind"`
	Number         *string               `json:"number"`
	Month          string                `json:"month"`
	IssuedAt       *time.Time            `json:"issued_at"`
	Rate           string                `json:"rate"`
	PlaceOfSupply  string                `json:"place_of_supply"`
	Supplier       invoicePartyResponse  `json:"supplier"`
	Recipient      invoicePartyResponse  `json:"recipient"`
	Lines          []invoiceLineResponse `json:"lines"`
	Totals         invoiceTotalsResponse `json:"totals"`
	CorrectsID     *uint64               `json:"corrects_id"`
	CorrectsNumber *string               `json:"corrects_number"`
	Reason         *string               `json:"reason,omitempty"`
	PDFURL         *string               `json:"pdf_url"`
	// IRN is the e-invoice registration its issuer recorded (einvoice.go).
	IRN *invoiceIRNResponse `json:"irn"`
	// The admins' list names the account (web/names.go).
	UserName  *string `json:"user_name,omitempty"`
	UserEmail *string `json:"user_email,omitempty"`
}

func toPartyResponse(p invoice.Party) invoicePartyResponse {
	return invoicePartyResponse{LegalName: p.LegalName, Address: p.Address, State: p.State, GSTIN: web.StrPtr(p.GSTIN)}
}

// toInvoiceResponse is an issued document; a draft (ID 0) has no id,
// number, date or PDF.
func toInvoiceResponse(inv *invoice.Invoice) invoiceResponse {
	r := invoiceResponse{UserID: inv.UserID, IssuerID: inv.IssuerID, Kind: string(inv.Kind), Month: inv.Month, Rate: inr.Format2(inv.Rate),
		PlaceOfSupply: inv.PlaceOfSupply, Supplier: toPartyResponse(inv.Supplier), Recipient: toPartyResponse(inv.Recipient),
		Lines: []invoiceLineResponse{}, CorrectsID: inv.CorrectsID, CorrectsNumber: web.StrPtr(inv.CorrectsNumber), IRN: toIRNResponse(inv.IRN),
		Reason: web.StrPtr(inv.Reason),
		Totals: invoiceTotalsResponse{Gross: inr.Format2(inv.Totals.Gross), Taxable: inr.Format2(inv.Totals.Taxable),
			CGST: inr.Format2(inv.Totals.CGST), SGST: inr.Format2(inv.Totals.SGST), IGST: inr.Format2(inv.Totals.IGST)}}
	if inv.ID != 0 {
		id, at := inv.ID, inv.IssuedAt.UTC()
		url := fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", inv.ID)
		r.ID, r.Number, r.IssuedAt, r.PDFURL = &id, &inv.Number, &at, &url
	}
	for _, l := range inv.Lines {
		r.Lines = append(r.Lines, invoiceLineResponse{Description: l.Description, Resold: l.Resold, SAC: l.SAC, Quantity: l.Quantity,
			UnitPrice: inr.Format2Ptr(l.UnitPrice), Gross: inr.Format2(l.Gross), Taxable: inr.Format2(l.Taxable),
			CGST: inr.Format2(l.CGST), SGST: inr.Format2(l.SGST), IGST: inr.Format2(l.IGST)})
	}
	return r
}

func (h *Handler) ListInvoices(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, per := web.Page(c, fe)
	f := invoice.Filter{Month: c.QueryParam("month"), Kind: invoice.Kind(c.QueryParam("kind")), Page: p, PerPage: per}
	if id := web.UintParam(c, fe, "user_id"); id != nil {
		f.UserID = *id
	}
	// A reseller's: as=issuer its customers' documents, as=recipient its
	// own, both without.
	switch c.QueryParam("as") {
	case "":
	case "issuer":
		f.IssuerID = web.Caller(c).ID
	case "recipient":
		f.UserID = web.Caller(c).ID
	default:
		fe.Add("as", "must be issuer or recipient")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	docs, total, err := h.app.Invoicing.List(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	out := web.ListResponse[invoiceResponse]{Data: []invoiceResponse{}, Meta: web.ListMeta{Page: p, PerPage: per, Total: total}}
	var ids directory.IDs
	for i := range docs {
		out.Data = append(out.Data, toInvoiceResponse(&docs[i]))
		ids.Users = append(ids.Users, docs[i].UserID)
	}
	n, err := h.app.History.Names(c.Request().Context(), web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range out.Data {
		out.Data[i].UserName, out.Data[i].UserEmail = web.UserName(n, out.Data[i].UserID), web.UserEmail(n, out.Data[i].UserID)
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) GetInvoice(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	inv, err := h.app.Invoicing.Get(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toInvoiceResponse(inv))
}

func (h *Handler) InvoicePDF(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	inv, err := h.app.Invoicing.Get(ctx, web.Caller(c), id)
	if err != nil {
		return err
	}
	pdf, err := h.app.Invoicing.PDF(ctx, inv)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s.pdf"`, fileName(inv.Number)))
	c.Response().Header().Set("Cache-Control", "private, no-store")
	return c.Blob(http.StatusOK, "application/pdf", pdf)
}

// fileName is a document number as a file name ("PG/26-27/000001" →
// "PG-26-27-000001").
func fileName(number string) string {
	b := []byte(number)
	for i, ch := range b {
		if ch == '/' {
			b[i] = '-'
		}
	}
	return string(b)
}

// upcomingInvoice is the caller's draft of this month; an admin's, any
// account's with user_id. A month already issued has none: 204, no body.
func (h *Handler) UpcomingInvoice(c echo.Context) error {
	fe := errs.FieldErrors{}
	var userID uint64
	if id := web.UintParam(c, fe, "user_id"); id != nil {
		userID = *id
	}
	if err := fe.Err(); err != nil {
		return err
	}
	inv, err := h.app.Invoicing.Upcoming(c.Request().Context(), issuing.StatementOf(web.Caller(c), userID), h.app.History.Now())
	if err != nil {
		return err
	}
	if inv == nil {
		return c.NoContent(http.StatusNoContent)
	}
	return c.JSON(http.StatusOK, toInvoiceResponse(inv))
}
