package money

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/money/reconciliation"
	"paygate/core/money/statement"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Bank-statement reconciliation (admins): import a CSV statement, list its
// lines, match or dismiss the unmatched ones.

// statementMemory is how much of a statement upload is held in memory; the
// rest (up to StatementImportMaxBytes) is spooled to a temporary file and
// read from there line by line. Spooled, not read from the body as it
// arrives: the column fields may follow the file (the panel and curl -F
// send the file first), and the file cannot be read without them.
const statementMemory = 64 << 10

// errImportRunning is a statement import while another runs on this
// instance: each holds a batch of lines and its matches, so one at a time
// keeps a small host's memory flat.
var errImportRunning = errs.E(errs.LimitExceeded, "import_in_progress",
	"Another statement import is running; try again when it has finished")

func (h *Handler) errStatementTooLarge() error {
	return errs.E(errs.TooLarge, "body_too_large",
		fmt.Sprintf("Request body too large: a statement file may be at most %s", byteSize(h.statementMax)))
}

// byteSize writes n as whole MB or kB when it is one, else in bytes.
func byteSize(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// statementFields are the text fields of the import form: the column mapping.
var statementFields = map[string]func(*statement.Mapping) *string{
	"date_column":      func(m *statement.Mapping) *string { return &m.Date },
	"narration_column": func(m *statement.Mapping) *string { return &m.Narration },
	"ref_column":       func(m *statement.Mapping) *string { return &m.Ref },
	"credit_column":    func(m *statement.Mapping) *string { return &m.Credit },
	"debit_column":     func(m *statement.Mapping) *string { return &m.Debit },
	"balance_column":   func(m *statement.Mapping) *string { return &m.Balance },
}

type statementResponse struct {
	ID           uint64     `json:"id"`
	FileName     string     `json:"file_name"`
	SHA256       string     `json:"sha256"`
	CreditLines  int        `json:"credit_lines"`
	NewLines     int        `json:"new_lines"`
	Duplicates   int        `json:"duplicate_lines"`
	DebitLines   int        `json:"debit_lines"`
	SkippedLines int        `json:"skipped_lines"`
	Matched      int        `json:"matched"`
	Unmatched    int        `json:"unmatched"`
	ImportedBy   uint64     `json:"imported_by"`
	CreatedAt    *time.Time `json:"created_at"`
}

func toStatementResponse(s *statement.Statement) statementResponse {
	return statementResponse{ID: s.ID, FileName: s.FileName, SHA256: s.SHA256, CreditLines: s.CreditLines, NewLines: s.NewLines,
		Duplicates: s.CreditLines - s.NewLines, DebitLines: s.DebitLines, SkippedLines: s.Skipped, Matched: s.Matched,
		Unmatched: s.Unmatched, ImportedBy: s.ImportedBy, CreatedAt: web.TimePtr(s.CreatedAt)}
}

type lineResponse struct {
	ID               uint64     `json:"id"`
	StatementID      uint64     `json:"statement_id"`
	LineNo           int        `json:"line_no"`
	Date             string     `json:"date"`
	Narration        string     `json:"narration"`
	RefNo            string     `json:"ref_no"`
	UTR              string     `json:"utr"`
	Amount           string     `json:"amount"`
	Balance          *string    `json:"balance"`
	Status           string     `json:"status"`
	Reason           *string    `json:"reason"`
	PaymentID        *string    `json:"payment_id"`
	BalanceRequestID *uint64    `json:"balance_request_id"`
	DecidedBy        *uint64    `json:"decided_by"`
	DecidedAt        *time.Time `json:"decided_at"`
	Note             *string    `json:"note"`
	CreatedAt        *time.Time `json:"created_at"`
}

func toLineResponse(l *statement.Line) lineResponse {
	out := lineResponse{ID: l.ID, StatementID: l.StatementID, LineNo: l.LineNo, Date: l.Date.Format(time.DateOnly),
		Narration: l.Narration, RefNo: l.RefNo, UTR: l.UTR, Amount: inr.Format2(l.Amount), Status: string(l.Status),
		PaymentID: l.PaymentPublicID, BalanceRequestID: l.BalanceRequestID, DecidedBy: l.DecidedBy, DecidedAt: l.DecidedAt,
		Note: l.Note, CreatedAt: web.TimePtr(l.CreatedAt)}
	if l.Balance != nil {
		b := inr.Format2(*l.Balance)
		out.Balance = &b
	}
	if l.Reason != "" {
		out.Reason = &l.Reason
	}
	return out
}

// importStatement reads a multipart/form-data statement: the CSV in field
// file, optional column names in the *_column fields.
func (h *Handler) ImportStatement(c echo.Context) error {
	req := c.Request()
	if mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMEMultipartForm {
		return web.ErrNotMultipart
	}
	maxBody := h.statementMax + 64<<10 // the file and the form around it
	if req.ContentLength > maxBody {
		return h.errStatementTooLarge()
	}
	select {
	case h.importing <- struct{}{}:
		defer func() { <-h.importing }()
	default:
		c.Response().Header().Set("Retry-After", "10")
		return errImportRunning
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, maxBody)
	if err := req.ParseMultipartForm(statementMemory); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return h.errStatementTooLarge()
		}
		return web.ErrNotMultipart.Wrap(err)
	}
	form := req.MultipartForm
	defer form.RemoveAll()
	fe := errs.FieldErrors{}
	var m statement.Mapping
	for name, values := range form.Value {
		field, known := statementFields[name]
		switch {
		case !known:
			fe.Add(name, "is not a known field")
		case len(values) > 1:
			fe.Add(name, "must be given once")
		case len(values[0]) > 100:
			fe.Add(name, "must be at most 100 characters")
		default:
			*field(&m) = values[0]
		}
	}
	files := form.File["file"]
	for name := range form.File {
		if name != "file" {
			fe.Add(name, "is not a known field")
		}
	}
	switch {
	case len(files) == 0:
		fe.Add("file", "is required: the statement as a CSV file")
	case len(files) > 1:
		fe.Add("file", "must be one file")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if files[0].Size > h.statementMax {
		return h.errStatementTooLarge()
	}
	f, err := files[0].Open()
	if err != nil {
		return fmt.Errorf("open uploaded statement: %w", err)
	}
	defer f.Close()
	st, err := h.app.Reconciliation.Import(req.Context(), web.Caller(c), reconciliation.ImportInput{
		FileName: files[0].Filename, Body: f, Mapping: m})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toStatementResponse(st))
}

var lineStatuses = []statement.Status{statement.StatusUnmatched, statement.StatusMatched, statement.StatusDismissed}

func (h *Handler) ListStatementLines(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	f := statement.Filter{Status: statement.Status(c.QueryParam("status")), StatementID: web.UintParam(c, fe, "statement_id"), Page: p, PerPage: pp}
	if f.Status != "" && !slices.Contains(lineStatuses, f.Status) {
		fe.Add("status", "must be unmatched, matched or dismissed")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Reconciliation.Lines(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toLineResponse), p, pp, total)
}

type matchLineRequest struct {
	PaymentID        string `json:"payment_id"`
	BalanceRequestID uint64 `json:"balance_request_id"`
}

func (h *Handler) MatchStatementLine(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req matchLineRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	l, err := h.app.Reconciliation.Match(c.Request().Context(), web.Caller(c), id,
		reconciliation.Target{PaymentID: req.PaymentID, BalanceRequestID: req.BalanceRequestID})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toLineResponse(l))
}

type dismissLineRequest struct {
	Note string `json:"note"`
}

func (h *Handler) DismissStatementLine(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req dismissLineRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	l, err := h.app.Reconciliation.Dismiss(c.Request().Context(), web.Caller(c), id, req.Note)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toLineResponse(l))
}
