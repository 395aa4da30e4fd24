package money

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/billing/issuing"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Account statements (docs/decisions.md, "Tax invoices, credit notes and
// statements").

type accountStatementResponse struct {
	UserID         uint64    `json:"user_id"`
	Month          string    `json:"month"`
	From           time.Time `json:"from"`
	To             time.Time `json:"to"`
	OpeningBalance string    `json:"opening_balance"`
	ClosingBalance string    `json:"closing_balance"`
	Credits        string    `json:"credits"`
	Debits         string    `json:"debits"`
	Entries        int       `json:"entries"`
}

// getStatement answers a month's statement: its figures (JSON), the PDF
// with every entry, or the entries as CSV under the export rules.
func (h *Handler) GetStatement(c echo.Context) error {
	fe := errs.FieldErrors{}
	month := c.QueryParam("month")
	if month == "" {
		fe.Add("month", "is required, YYYY-MM")
	}
	format := c.QueryParam("format")
	if format != "" && format != "json" && format != "pdf" && format != "csv" {
		fe.Add("format", "must be json, pdf or csv")
	}
	var userID uint64
	if id := web.UintParam(c, fe, "user_id"); id != nil {
		userID = *id
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), web.Caller(c)
	id := issuing.StatementOf(actor, userID)
	switch format {
	case "pdf":
		pdf, err := h.app.Invoicing.StatementPDF(ctx, id, month)
		if err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="statement-%d-%s.pdf"`, id, month))
		c.Response().Header().Set("Cache-Control", "private, no-store")
		return c.Blob(http.StatusOK, "application/pdf", pdf)
	case "csv":
		loc := h.app.History.Location()
		out := web.NewCSVStream(c, h.kit, fmt.Sprintf("statement-%d-%s", id, month), h.app.History.Now().In(loc), []string{
			"created_at", "type", "reference_type", "reference_id", "description", "debit", "credit", "balance_after",
		})
		return out.Finish(h.app.History.Exporting(ctx, actor, func(ctx context.Context) error {
			first := true
			st, _, err := h.app.Invoicing.Statement(ctx, id, month, func(e ledger.Entry) error {
				if first {
					first = false
					if err := out.Row("", "", "", "", "Opening balance", "", "", inr.Format2(e.BalanceBefore)); err != nil {
						return err
					}
				}
				ref, debit, credit := "", "", inr.Format2(e.Amount)
				if e.ReferenceID != nil {
					ref = strconv.FormatUint(*e.ReferenceID, 10)
				}
				if e.Type == ledger.Debit {
					debit, credit = credit, ""
				}
				return out.Row(web.CSVTime(e.CreatedAt, loc), string(e.Type), e.ReferenceType, ref, e.Description, debit, credit,
					inr.Format2(e.BalanceAfter))
			})
			if err != nil {
				return err
			}
			if first {
				if err := out.Row("", "", "", "", "Opening balance", "", "", inr.Format2(st.Opening)); err != nil {
					return err
				}
			}
			return out.Row("", "", "", "", "Closing balance", inr.Format2(st.Debits), inr.Format2(st.Credits), inr.Format2(st.Closing))
		}))
	}
	st, n, err := h.app.Invoicing.Statement(ctx, id, month, nil)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accountStatementResponse{UserID: id, Month: month, From: st.From.UTC(), To: st.To.UTC(),
		OpeningBalance: inr.Format2(st.Opening), ClosingBalance: inr.Format2(st.Closing), Credits: inr.Format2(st.Credits),
		Debits: inr.Format2(st.Debits), Entries: n})
}
