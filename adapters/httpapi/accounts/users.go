package accounts

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	meteringhttp "paygate/adapters/httpapi/metering"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts"
	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type UserResponse struct {
	ID              uint64  `json:"id"`
	Name            string  `json:"name"`
	Email           string  `json:"email"`
	Phone           string  `json:"phone"`
	Role            string  `json:"role"`
	Status          string  `json:"status"`
	Plan            string  `json:"plan"`
	Balance         string  `json:"balance"`
	TotalSpent      string  `json:"total_spent"`
	APIKey          *string `json:"api_key"`
	WebhookURL      *string `json:"webhook_url"`
	LowBalanceAlert *string `json:"low_balance_alert"`
	// CollectionFeePercent is the percentage of each successful payment
	// debited as a fee.
	CollectionFeePercent string `json:"collection_fee_percent"`
	// DailyPayoutLimit is the most the account may pay out in a local day.
	DailyPayoutLimit string     `json:"daily_payout_limit"`
	EmailVerifiedAt  *time.Time `json:"email_verified_at"`
	CreatedAt        *time.Time `json:"created_at"`
	UpdatedAt        *time.Time `json:"updated_at"`
	DeletedAt        *time.Time `json:"deleted_at,omitempty"`
	// ParentID is a customer's reseller (decisions "Resellers: customers and their scoping"), null for
	// everyone else; ResellerName names it where the caller may read it
	// (admins' user lists, a reseller's customers).
	ParentID     *uint64 `json:"parent_id"`
	ResellerName *string `json:"reseller_name"`
	// Billing is the caller's own billing profile, or null: in /auth/me
	// only (billingprofile.go).
	Billing *web.Shown[billingProfileResponse] `json:"billing,omitempty"`
}

// ToUserResponse never carries the password hash or the webhook secret.
func ToUserResponse(u *user.User) UserResponse {
	r := UserResponse{
		ID: u.ID, Name: u.Name, Email: u.Email, Phone: u.Phone, Role: string(u.Role), Status: string(u.Status),
		Plan: string(u.Plan), Balance: inr.Format2(u.Balance), TotalSpent: inr.Format2(u.TotalSpent),
		APIKey: u.APIKey, WebhookURL: u.WebhookURL, EmailVerifiedAt: u.EmailVerifiedAt,
		CreatedAt: web.TimePtr(u.CreatedAt), UpdatedAt: web.TimePtr(u.UpdatedAt), DeletedAt: u.DeletedAt,
		CollectionFeePercent: inr.Format2(u.CollectionFeePercent), DailyPayoutLimit: inr.Format2(u.DailyPayoutLimit),
		ParentID: u.ParentID,
	}
	if u.LowBalanceAlert != nil {
		v := inr.Format2(*u.LowBalanceAlert)
		r.LowBalanceAlert = &v
	}
	return r
}

type createUserRequest struct {
	Name     string `json:"name" validate:"required,max=255"`
	Email    string `json:"email" validate:"required,max=255"`
	Phone    string `json:"phone" validate:"required,max=20"`
	Password string `json:"password" validate:"required"`
	Role     string `json:"role" validate:"omitempty,oneof=admin reseller user"`
	Status   string `json:"status" validate:"omitempty,oneof=pending active blocked"`
	Plan     string `json:"plan" validate:"omitempty,max=50"`
}

func (h *Handler) CreateUser(c echo.Context) error {
	var req createUserRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	u, err := h.app.Accounts.CreateUser(c.Request().Context(), web.Caller(c), accounts.NewUser{
		Profile: user.Profile{Name: req.Name, Email: req.Email, Phone: req.Phone, Password: req.Password},
		Role:    user.Role(req.Role), Status: user.Status(req.Status), Plan: user.Plan(req.Plan),
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, ToUserResponse(u))
}

func (h *Handler) ListUsers(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	f := user.Filter{Role: user.Role(c.QueryParam("role")), Status: user.Status(c.QueryParam("status")), Q: c.QueryParam("q"), Page: p, PerPage: pp}
	f.ParentID = web.UintParam(c, fe, "reseller_id")
	user.CheckAccount(fe, web.Given(f.Role), web.Given(f.Status), nil)
	if len(f.Q) > 255 {
		fe.Add("q", "must be at most 255 characters")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	users, total, err := h.app.Accounts.ListUsers(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	items := web.MapSlice(users, ToUserResponse)
	if err := h.nameResellers(c, items); err != nil {
		return err
	}
	return web.WriteList(c, items, p, pp, total)
}

// nameResellers sets reseller_name of the users that have a reseller (one
// lookup of the page's distinct resellers).
func (h *Handler) nameResellers(c echo.Context, items []UserResponse) error {
	var ids directory.IDs
	for _, u := range items {
		if u.ParentID != nil {
			ids.Users = append(ids.Users, *u.ParentID)
		}
	}
	if len(ids.Users) == 0 {
		return nil
	}
	n, err := h.app.History.Names(c.Request().Context(), web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range items {
		if p := items[i].ParentID; p != nil {
			items[i].ResellerName = web.UserName(n, *p)
		}
	}
	return nil
}

func (h *Handler) GetUser(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	u, err := h.app.Accounts.GetUser(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	out := []UserResponse{ToUserResponse(u)}
	if err := h.nameResellers(c, out); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out[0])
}

type patchUserRequest struct {
	Name   *string `json:"name" validate:"omitempty,max=255"`
	Phone  *string `json:"phone" validate:"omitempty,max=20"`
	Role   *string `json:"role" validate:"omitempty,oneof=admin reseller user"`
	Status *string `json:"status" validate:"omitempty,oneof=pending active blocked"`
	Plan   *string `json:"plan" validate:"omitempty,max=50"`
	// CollectionFeePercent is a decimal string, 0 to 100, at most 2 places.
	CollectionFeePercent *string `json:"collection_fee_percent" validate:"omitempty,max=10"`
	// DailyPayoutLimit is a decimal string in rupees, at most 2 places.
	DailyPayoutLimit *string `json:"daily_payout_limit" validate:"omitempty,max=12"`
}

func (h *Handler) PatchUser(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req patchUserRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	p := accounts.UserPatch{Name: req.Name, Phone: req.Phone, CollectionFeePercent: req.CollectionFeePercent,
		DailyPayoutLimit: req.DailyPayoutLimit}
	if req.Role != nil {
		r := user.Role(*req.Role)
		p.Role = &r
	}
	if req.Status != nil {
		st := user.Status(*req.Status)
		p.Status = &st
	}
	if req.Plan != nil {
		pl := user.Plan(*req.Plan)
		p.Plan = &pl
	}
	u, err := h.app.Accounts.PatchUser(c.Request().Context(), web.Caller(c), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ToUserResponse(u))
}

func (h *Handler) SetUserStatus(st user.Status) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := web.IDParam(c, "id")
		if err != nil {
			return err
		}
		u, err := h.app.Accounts.SetUserStatus(c.Request().Context(), web.Caller(c), id, st)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, ToUserResponse(u))
	}
}

func (h *Handler) DeleteUser(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	if err := h.app.Accounts.DeleteUser(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type adjustmentRequest struct {
	Type        string `json:"type" validate:"required,oneof=credit debit"`
	Amount      string `json:"amount" validate:"required"`
	Description string `json:"description" validate:"required,max=1000"`
}

func (h *Handler) AdjustBalance(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req adjustmentRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	e, err := h.app.Accounts.AdjustBalance(c.Request().Context(), web.Caller(c), id, accounts.Adjustment{Type: ledger.Type(req.Type), Amount: req.Amount, Description: req.Description})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, meteringhttp.ToTransactionResponse(e))
}
