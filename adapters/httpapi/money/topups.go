package money

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/money"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// maxTopUpBody bounds a whole balance request upload: a 5 MB screenshot and
// the form around it. It replaces the JSON limit for this route only.
const maxTopUpBody = 6 << 20

// topUpMemory is how much of an upload is held in memory; the rest of the
// (bounded) body is spooled to a temporary file, removed after the request.
const topUpMemory = 1 << 20

var (
	errUploadTooLarge = errs.E(errs.TooLarge, "body_too_large", "Request body too large: a balance request with its screenshot may be at most 6 MB")
)

type topUpResponse struct {
	ID            uint64     `json:"id"`
	UserID        uint64     `json:"user_id"`
	Amount        string     `json:"amount"`
	UTRNumber     string     `json:"utr_number"`
	PaymentMethod string     `json:"payment_method"`
	ScreenshotURL *string    `json:"screenshot_url"`
	Remarks       *string    `json:"remarks"`
	Status        string     `json:"status"`
	ApprovedBy    *uint64    `json:"approved_by"`
	ApprovedAt    *time.Time `json:"approved_at"`
	AdminRemarks  *string    `json:"admin_remarks"`
	CreatedAt     *time.Time `json:"created_at"`
	UpdatedAt     *time.Time `json:"updated_at"`
	// UserName names the owner in a reseller's list of its customers'
	// requests (scope=customers) only.
	UserName *string `json:"user_name,omitempty"`
}

// toTopUpResponse links the screenshot instead of naming the stored file.
func toTopUpResponse(r *topup.Request) topUpResponse {
	out := topUpResponse{
		ID: r.ID, UserID: r.UserID, Amount: inr.Format2(r.Amount), UTRNumber: r.UTRNumber, PaymentMethod: r.PaymentMethod,
		Remarks: r.Remarks, Status: string(r.Status), ApprovedBy: r.ApprovedBy, ApprovedAt: r.ApprovedAt,
		AdminRemarks: r.AdminRemarks, CreatedAt: web.TimePtr(r.CreatedAt), UpdatedAt: web.TimePtr(r.UpdatedAt),
	}
	if r.Screenshot != nil {
		u := fmt.Sprintf("/api/v1/panel/balance-requests/%d/screenshot", r.ID)
		out.ScreenshotURL = &u
	}
	return out
}

// topUpFields are the text fields of the create form.
var topUpFields = []string{"amount", "utr_number", "payment_method", "remarks"}

// createTopUp reads a multipart/form-data balance request. The body is
// bounded (maxTopUpBody) before a byte is parsed; unknown or repeated
// fields are refused like unknown JSON fields.
func (h *Handler) CreateTopUp(c echo.Context) error {
	req := c.Request()
	if mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMEMultipartForm {
		return web.ErrNotMultipart
	}
	if req.ContentLength > maxTopUpBody {
		return errUploadTooLarge
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, maxTopUpBody)
	if err := req.ParseMultipartForm(topUpMemory); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return errUploadTooLarge
		}
		return web.ErrNotMultipart.Wrap(err)
	}
	form := req.MultipartForm
	defer form.RemoveAll()

	fe := errs.FieldErrors{}
	text := map[string]string{}
	for name, values := range form.Value {
		switch {
		case name == "screenshot":
			// A browser sends an empty file input as an empty text part.
			if len(values) > 1 || values[0] != "" {
				fe.Add(name, "must be a file")
			}
		case !slices.Contains(topUpFields, name):
			fe.Add(name, "is not a known field")
		case len(values) > 1:
			fe.Add(name, "must be given once")
		default:
			text[name] = values[0]
		}
	}
	for name, files := range form.File {
		switch {
		case name != "screenshot":
			fe.Add(name, "is not a known field")
		case len(files) > 1:
			fe.Add(name, "must be one file")
		}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	in := money.NewTopUp{Input: topup.Input{
		Amount: text["amount"], UTRNumber: text["utr_number"], PaymentMethod: text["payment_method"], Remarks: text["remarks"],
	}}
	if files := form.File["screenshot"]; len(files) == 1 {
		f, err := files[0].Open()
		if err != nil {
			return fmt.Errorf("open uploaded screenshot: %w", err)
		}
		defer f.Close()
		in.Screenshot = &money.Upload{Body: f, Size: files[0].Size}
	}
	r, err := h.app.TopUps.CreateTopUp(req.Context(), web.Caller(c), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toTopUpResponse(r))
}

func (h *Handler) ListTopUps(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := topup.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: topup.Status(c.QueryParam("status")), Q: strings.TrimSpace(c.QueryParam("q")),
		From: web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	if f.Status != "" && !f.Status.Valid() {
		fe.Add("status", "must be pending, approved or rejected")
	}
	if len(f.Q) > topup.MaxUTRLength {
		fe.Add("q", "must be at most 50 characters")
	}
	scope := c.QueryParam("scope")
	if scope != "" && scope != "own" && scope != "customers" {
		fe.Add("scope", "must be own or customers")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if scope == "customers" {
		return h.listCustomerTopUps(c, f)
	}
	rows, total, err := h.app.TopUps.ListTopUps(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toTopUpResponse), p, pp, total)
}

func (h *Handler) GetTopUp(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	r, err := h.app.TopUps.GetTopUp(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTopUpResponse(r))
}

// topUpScreenshot streams the file with the type detected at upload. The
// browser must not second-guess it (nosniff) nor run anything in it (CSP
// sandbox); images show inline, a PDF is a download.
func (h *Handler) TopUpScreenshot(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	rc, typ, err := h.app.TopUps.TopUpScreenshot(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	defer rc.Close()
	hdr := c.Response().Header()
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hdr.Set("Cache-Control", "private, no-store")
	disposition := "attachment"
	if typ.Image() {
		disposition = "inline"
	}
	hdr.Set(echo.HeaderContentDisposition, fmt.Sprintf(`%s; filename="balance-request-%d.%s"`, disposition, id, typ.Ext))
	return c.Stream(http.StatusOK, typ.ContentType, rc)
}

type decideTopUpRequest struct {
	AdminRemarks string `json:"admin_remarks"`
}

func (h *Handler) ApproveTopUp(c echo.Context) error {
	return h.decideTopUp(c, h.app.TopUps.ApproveTopUp)
}

func (h *Handler) RejectTopUp(c echo.Context) error {
	return h.decideTopUp(c, h.app.TopUps.RejectTopUp)
}

func (h *Handler) decideTopUp(c echo.Context, decide func(ctx context.Context, actor *user.User, id uint64, remarks string) (*topup.Request, error)) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req decideTopUpRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	r, err := decide(c.Request().Context(), web.Caller(c), id, req.AdminRemarks)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTopUpResponse(r))
}

// listCustomerTopUps is GET /balance-requests?scope=customers: the
// reseller's customers' requests, each naming its customer.
func (h *Handler) listCustomerTopUps(c echo.Context, f topup.Filter) error {
	ctx := c.Request().Context()
	rows, total, err := h.app.TopUps.ListCustomerTopUps(ctx, web.Caller(c), f)
	if err != nil {
		return err
	}
	names := map[uint64]*string{}
	items := make([]topUpResponse, len(rows))
	for i := range rows {
		uid := rows[i].UserID
		if _, ok := names[uid]; !ok {
			names[uid] = nil
			if u, err := h.app.Customers.Get(ctx, web.Caller(c), uid); err == nil {
				names[uid] = &u.Name
			} else if errs.KindOf(err) != errs.NotFound {
				return err
			}
		}
		items[i] = toTopUpResponse(&rows[i])
		items[i].UserName = names[uid]
	}
	return web.WriteList(c, items, f.Page, f.PerPage, total)
}
