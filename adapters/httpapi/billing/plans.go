package billing

import (
	"encoding/json"
	"net/http"
	"reflect"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/billing"
	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Plans and subscriptions (docs/decisions.md, "Plans that bill").

type planResponse struct {
	Code         string   `json:"code"`
	Name         string   `json:"name"`
	MonthlyPrice *string  `json:"monthly_price"`
	MonthlyCalls *int     `json:"monthly_calls"`
	Features     []string `json:"features"`
	Public       bool     `json:"public"`
	Status       string   `json:"status"`
}

func toPlanResponse(p *plan.Plan) planResponse {
	r := planResponse{Code: p.Code, Name: p.Name, MonthlyPrice: inr.Format2Ptr(p.MonthlyPrice), MonthlyCalls: p.MonthlyCalls,
		Features: p.Features, Public: p.Public, Status: string(p.Status)}
	if r.Features == nil {
		r.Features = []string{}
	}
	return r
}

type planList struct {
	Data []planResponse `json:"data"`
}

func (h *Handler) ListPlans(c echo.Context) error {
	ps, err := h.app.Billing.Plans(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	out := planList{Data: []planResponse{}}
	for i := range ps {
		out.Data = append(out.Data, toPlanResponse(&ps[i]))
	}
	return c.JSON(http.StatusOK, out)
}

// nullableInt is a JSON field that may be absent, null or an integer.
type nullableInt struct {
	set   bool
	value *int
}

func (n *nullableInt) UnmarshalJSON(b []byte) error {
	n.set = true
	if string(b) == "null" {
		n.value = nil
		return nil
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		return &json.UnmarshalTypeError{Value: "non-integer", Type: reflect.TypeOf(0)}
	}
	n.value = &v
	return nil
}

type createPlanRequest struct {
	Code         string             `json:"code"`
	Name         string             `json:"name"`
	MonthlyPrice web.NullableString `json:"monthly_price"`
	MonthlyCalls nullableInt        `json:"monthly_calls"`
	Features     []string           `json:"features"`
	Public       bool               `json:"public"`
}

// createPlan adds a plan (admin, audited). monthly_price and monthly_calls
// are required, null meaning a price agreed per account and unlimited
// calls: a plan that bills is never made by leaving a field out.
func (h *Handler) CreatePlan(c echo.Context) error {
	var req createPlanRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	if !req.MonthlyPrice.Set {
		fe.Add("monthly_price", "is required: an amount, or null for a price agreed per account")
	}
	if !req.MonthlyCalls.set {
		fe.Add("monthly_calls", "is required: a number of calls a month, or null for unlimited")
	}
	price := web.MoneyField(fe, "monthly_price", req.MonthlyPrice.Value, 2)
	if err := fe.Err(); err != nil {
		return err
	}
	p, err := h.app.Billing.CreatePlan(c.Request().Context(), web.Caller(c), billing.NewPlan{Code: req.Code, Name: req.Name,
		MonthlyPrice: price, MonthlyCalls: req.MonthlyCalls.value, Features: req.Features, Public: req.Public})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toPlanResponse(p))
}

type patchPlanRequest struct {
	Name         *string            `json:"name"`
	MonthlyPrice web.NullableString `json:"monthly_price"`
	MonthlyCalls nullableInt        `json:"monthly_calls"`
	Features     *[]string          `json:"features" validate:"omitempty,dive,min=1,max=100"`
	Public       *bool              `json:"public"`
	Status       *string            `json:"status"`
}

func (h *Handler) PatchPlan(c echo.Context) error {
	var req patchPlanRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	patch := billing.PlanPatch{Name: req.Name, SetPrice: req.MonthlyPrice.Set, SetCalls: req.MonthlyCalls.set,
		MonthlyCalls: req.MonthlyCalls.value, Features: req.Features, Public: req.Public}
	if req.MonthlyPrice.Set {
		patch.MonthlyPrice = web.MoneyField(fe, "monthly_price", req.MonthlyPrice.Value, 2)
	}
	if req.Status != nil {
		st := plan.Status(*req.Status)
		patch.Status = &st
	}
	if err := fe.Err(); err != nil {
		return err
	}
	p, err := h.app.Billing.UpdatePlan(c.Request().Context(), web.Caller(c), c.Param("code"), patch)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPlanResponse(p))
}

type subscriptionResponse struct {
	Plan         planResponse `json:"plan"`
	Price        string       `json:"price"`
	Period       string       `json:"period"`
	PeriodStart  time.Time    `json:"period_start"`
	PeriodEnd    time.Time    `json:"period_end"`
	Status       string       `json:"status"`
	PastDueSince *time.Time   `json:"past_due_since"`
	GraceEndsAt  *time.Time   `json:"grace_ends_at"`
	CallsUsed    int          `json:"calls_used"`
	CallsAllowed *int         `json:"calls_allowed"`
	NextChargeAt time.Time    `json:"next_charge_at"`
	NextPlanCode string       `json:"next_plan_code"`
	NextAmount   string       `json:"next_amount"`
}

func toSubscriptionResponse(v *billing.View) subscriptionResponse {
	sub := v.Subscription
	return subscriptionResponse{Plan: toPlanResponse(v.Plan), Price: inr.Format2(sub.Price), Period: sub.Period,
		PeriodStart: sub.PeriodStart.UTC(), PeriodEnd: sub.PeriodEnd.UTC(), Status: string(sub.Status), PastDueSince: sub.PastDueSince,
		CallsUsed: v.CallsUsed, CallsAllowed: v.CallsAllowed, NextChargeAt: v.NextChargeAt.UTC(), NextPlanCode: v.NextPlanCode,
		NextAmount: inr.Format2(v.NextAmount), GraceEndsAt: v.GraceEndsAt}
}

func (h *Handler) GetSubscription(c echo.Context) error {
	v, err := h.app.Billing.Subscription(c.Request().Context(), web.Caller(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSubscriptionResponse(v))
}

type quoteResponse struct {
	PlanCode     string    `json:"plan_code"`
	Applies      string    `json:"applies"` // now, next_period
	ChargeNow    string    `json:"charge_now"`
	NextAmount   string    `json:"next_amount"`
	NextChargeAt time.Time `json:"next_charge_at"`
}

// quoteSubscription is what switching to plan_code would do, changing
// nothing: the panel shows it before the owner confirms.
func (h *Handler) QuoteSubscription(c echo.Context) error {
	code := c.QueryParam("plan_code")
	if code == "" || len(code) > 50 {
		fe := errs.FieldErrors{}
		fe.Add("plan_code", "is required, at most 50 characters")
		return fe.Err()
	}
	q, err := h.app.Billing.Quote(c.Request().Context(), web.Caller(c).ID, code)
	if err != nil {
		return err
	}
	out := quoteResponse{PlanCode: q.PlanCode, Applies: "next_period", ChargeNow: inr.Format2(q.ChargeNow),
		NextAmount: inr.Format2(q.NextAmount), NextChargeAt: q.NextChargeAt.UTC()}
	if q.Now {
		out.Applies = "now"
	}
	return c.JSON(http.StatusOK, out)
}

// getUserSubscription is an admin reading an account's subscription, its
// agreed price included.
func (h *Handler) GetUserSubscription(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	v, err := h.app.Billing.Subscription(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSubscriptionResponse(v))
}

type changeSubscriptionRequest struct {
	PlanCode string `json:"plan_code" validate:"required,max=50"`
}

// changeSubscription is the owner switching between public plans: an
// upgrade at once with its prorated charge (402 when short), a downgrade
// from the next period.
func (h *Handler) ChangeSubscription(c echo.Context) error {
	var req changeSubscriptionRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	v, err := h.app.Billing.Change(c.Request().Context(), billing.Change{UserID: web.Caller(c).ID, PlanCode: req.PlanCode})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSubscriptionResponse(v))
}

type setSubscriptionRequest struct {
	PlanCode string  `json:"plan_code" validate:"required,max=50"`
	Price    *string `json:"price"`
}

// setSubscription is an admin putting an account on a plan at once, at an
// agreed price for a custom-price plan; audited.
func (h *Handler) SetSubscription(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req setSubscriptionRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	price := web.MoneyField(fe, "price", req.Price, 2)
	if err := fe.Err(); err != nil {
		return err
	}
	v, err := h.app.Billing.Change(c.Request().Context(), billing.Change{UserID: id, PlanCode: req.PlanCode, Price: price, Admin: web.Caller(c)})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSubscriptionResponse(v))
}
