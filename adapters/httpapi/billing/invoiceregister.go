package billing

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// The GSTR-1 register (docs/decisions.md, "Tax invoices, credit notes and
// statements"): a month's documents of their issuer, as JSON or as CSV
// under the export rules.

type registerDocumentResponse struct {
	ID                uint64    `json:"id"`
	UserID            uint64    `json:"user_id"`
	Section           string    `json:"section"`
	Kind              string    `json:"kind"`
	Number            string    `json:"number"`
	Date              string    `json:"date"`
	IssuedAt          time.Time `json:"issued_at"`
	BilledMonth       string    `json:"billed_month"`
	RecipientGSTIN    *string   `json:"recipient_gstin"`
	RecipientName     string    `json:"recipient_name"`
	PlaceOfSupply     string    `json:"place_of_supply"`
	PlaceOfSupplyName string    `json:"place_of_supply_name"`
	Rate              string    `json:"rate"`
	Value             string    `json:"value"`
	Taxable           string    `json:"taxable"`
	IGST              string    `json:"igst"`
	CGST              string    `json:"cgst"`
	SGST              string    `json:"sgst"`
	CorrectsNumber    *string   `json:"corrects_number"`
	CorrectsDate      *string   `json:"corrects_date"`
}

type registerAmountsResponse struct {
	Value   string `json:"value"`
	Taxable string `json:"taxable"`
	IGST    string `json:"igst"`
	CGST    string `json:"cgst"`
	SGST    string `json:"sgst"`
}

type registerSACResponse struct {
	Scope    string `json:"scope"`
	SAC      string `json:"sac"`
	Rate     string `json:"rate"`
	Quantity int64  `json:"quantity"`
	registerAmountsResponse
}

type registerTotalsResponse struct {
	Invoices    registerAmountsResponse `json:"invoices"`
	CreditNotes registerAmountsResponse `json:"credit_notes"`
	Net         registerAmountsResponse `json:"net"`
}

type registerResponse struct {
	Month      string                     `json:"month"`
	From       time.Time                  `json:"from"`
	To         time.Time                  `json:"to"`
	IssuerID   *uint64                    `json:"issuer_id"`
	Documents  []registerDocumentResponse `json:"documents"`
	SACSummary []registerSACResponse      `json:"sac_summary"`
	Totals     registerTotalsResponse     `json:"totals"`
}

// registerColumns are the CSV's: a record of each document, then of each
// SAC summary row (section = its scope), then the totals (section =
// invoices, credit_notes, net).
var registerColumns = []string{
	"record", "section", "kind", "number", "date", "recipient_gstin", "recipient_name", "place_of_supply", "rate",
	"value", "taxable", "igst", "cgst", "sgst", "corrects_number", "corrects_date", "billed_month", "sac", "quantity",
}

func toRegisterAmounts(t invoice.Totals) registerAmountsResponse {
	return registerAmountsResponse{Value: inr.Format2(t.Gross), Taxable: inr.Format2(t.Taxable), IGST: inr.Format2(t.IGST),
		CGST: inr.Format2(t.CGST), SGST: inr.Format2(t.SGST)}
}

// registerDate is a document's date, in TIMEZONE.
func registerDate(t time.Time, loc *time.Location) string { return t.In(loc).Format(time.DateOnly) }

func toRegisterDocument(r invoice.RegisterRow, loc *time.Location) registerDocumentResponse {
	d := r.Doc
	name, _ := gst.StateName(d.PlaceOfSupply)
	a := toRegisterAmounts(d.Totals)
	out := registerDocumentResponse{ID: d.ID, UserID: d.UserID, Section: string(r.Section), Kind: string(d.Kind), Number: d.Number,
		Date: registerDate(d.IssuedAt, loc), IssuedAt: d.IssuedAt.UTC(), BilledMonth: d.Month, RecipientGSTIN: web.StrPtr(d.Recipient.GSTIN),
		RecipientName: d.Recipient.LegalName, PlaceOfSupply: d.PlaceOfSupply, PlaceOfSupplyName: name, Rate: inr.Format2(d.Rate),
		Value: a.Value, Taxable: a.Taxable, IGST: a.IGST, CGST: a.CGST, SGST: a.SGST, CorrectsNumber: web.StrPtr(d.CorrectsNumber)}
	if d.CorrectsIssuedAt != nil {
		date := registerDate(*d.CorrectsIssuedAt, loc)
		out.CorrectsDate = &date
	}
	return out
}

func toRegisterResponse(reg *invoice.Register, loc *time.Location) registerResponse {
	out := registerResponse{Month: reg.Month, From: reg.From.UTC(), To: reg.To.UTC(), IssuerID: reg.IssuerID,
		Documents: []registerDocumentResponse{}, SACSummary: []registerSACResponse{},
		Totals: registerTotalsResponse{Invoices: toRegisterAmounts(reg.Totals.Invoices), CreditNotes: toRegisterAmounts(reg.Totals.CreditNotes),
			Net: toRegisterAmounts(reg.Totals.Net)}}
	for _, r := range reg.Rows {
		out.Documents = append(out.Documents, toRegisterDocument(r, loc))
	}
	for _, r := range reg.SAC {
		out.SACSummary = append(out.SACSummary, registerSACResponse{Scope: string(r.Scope), SAC: r.SAC, Rate: inr.Format2(r.Rate),
			Quantity: r.Quantity, registerAmountsResponse: toRegisterAmounts(r.Totals)})
	}
	return out
}

// invoiceRegister answers the month's GSTR-1 register of the caller's
// documents (an admin: the platform's; a reseller: those it issued).
func (h *Handler) InvoiceRegister(c echo.Context) error {
	fe := errs.FieldErrors{}
	month := c.QueryParam("month")
	if month == "" {
		fe.Add("month", "is required, YYYY-MM")
	}
	format := c.QueryParam("format")
	if format != "" && format != "json" && format != "csv" {
		fe.Add("format", "must be json or csv")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx, actor, loc := c.Request().Context(), web.Caller(c), h.app.History.Location()
	if format != "csv" {
		reg, err := h.app.Invoicing.Register(ctx, actor, month)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, toRegisterResponse(reg, loc))
	}
	out := web.NewCSVStream(c, h.kit, "gstr1-register-"+month, h.app.History.Now().In(loc), registerColumns)
	return out.Finish(h.app.History.Exporting(ctx, actor, func(ctx context.Context) error {
		reg, err := h.app.Invoicing.Register(ctx, actor, month)
		if err != nil {
			return err
		}
		for _, r := range reg.Rows {
			d := toRegisterDocument(r, loc)
			pos := d.PlaceOfSupply
			if d.PlaceOfSupplyName != "" {
				pos += "-" + d.PlaceOfSupplyName // as GSTR-1 writes it: "29-Karnataka"
			}
			if err := out.Row("document", d.Section, d.Kind, d.Number, d.Date, web.Deref(d.RecipientGSTIN), d.RecipientName, pos, d.Rate,
				d.Value, d.Taxable, d.IGST, d.CGST, d.SGST, web.Deref(d.CorrectsNumber), web.Deref(d.CorrectsDate), d.BilledMonth, "", ""); err != nil {
				return err
			}
		}
		for _, r := range reg.SAC {
			a := toRegisterAmounts(r.Totals)
			if err := out.Row("sac_summary", string(r.Scope), "", "", "", "", "", "", inr.Format2(r.Rate),
				a.Value, a.Taxable, a.IGST, a.CGST, a.SGST, "", "", "", r.SAC, strconv.FormatInt(r.Quantity, 10)); err != nil {
				return err
			}
		}
		for _, t := range []struct {
			name string
			t    invoice.Totals
		}{{"invoices", reg.Totals.Invoices}, {"credit_notes", reg.Totals.CreditNotes}, {"net", reg.Totals.Net}} {
			a := toRegisterAmounts(t.t)
			if err := out.Row("total", t.name, "", "", "", "", "", "", "", a.Value, a.Taxable, a.IGST, a.CGST, a.SGST, "", "", "", "", ""); err != nil {
				return err
			}
		}
		return nil
	}))
}
