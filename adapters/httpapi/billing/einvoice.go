package billing

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/einvoice"
	"paygate/adapters/httpapi/web"
	"paygate/core/billing/invoice"
	"paygate/core/billing/issuing"
)

// E-invoicing of B2B documents (docs/decisions.md, "Tax invoices, credit
// notes and statements"): the document in the e-invoice schema 1.1, and the
// portal's answer recorded once. Both for the document's issuer only.

// invoiceIRNResponse is a document's recorded e-invoice registration.
type invoiceIRNResponse struct {
	IRN        string    `json:"irn"`
	AckNo      string    `json:"ack_no"`
	AckDate    time.Time `json:"ack_date"`
	SignedQR   string    `json:"signed_qr"`
	RecordedAt time.Time `json:"recorded_at"`
}

func toIRNResponse(irn *invoice.IRN) *invoiceIRNResponse {
	if irn == nil {
		return nil
	}
	return &invoiceIRNResponse{IRN: irn.IRN, AckNo: irn.AckNo, AckDate: irn.AckDate.UTC(), SignedQR: irn.SignedQR, RecordedAt: irn.RecordedAt.UTC()}
}

type recordIRNRequest struct {
	IRN      string `json:"irn"`
	AckNo    string `json:"ack_no"`
	AckDate  string `json:"ack_date"` // RFC 3339
	SignedQR string `json:"signed_qr"`
}

func (h *Handler) GetEInvoice(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	e, err := h.app.Invoicing.EInvoice(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, einvoice.From(e))
}

func (h *Handler) RecordIRN(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req recordIRNRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	in := issuing.IRNInput{IRN: req.IRN, AckNo: req.AckNo, AckDate: req.AckDate, SignedQR: req.SignedQR}
	inv, err := h.app.Invoicing.RecordIRN(c.Request().Context(), web.Caller(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toInvoiceResponse(inv))
}
