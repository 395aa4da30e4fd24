package metering

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/metering/history"
	"paygate/core/metering/report"
	"paygate/core/platform/inr"
)

// Dashboard money sums hit amounts, which have 4 places: "12.5000".

type usageCounts struct {
	Calls               int64 `json:"calls"`
	Success             int64 `json:"success"`
	Failed              int64 `json:"failed"`
	InsufficientBalance int64 `json:"insufficient_balance"`
	Pending             int64 `json:"pending"`
}

func toUsageCounts(u report.Usage) usageCounts {
	return usageCounts{Calls: u.Calls, Success: u.Success, Failed: u.Failed, InsufficientBalance: u.InsufficientBalance, Pending: u.Pending}
}

type dashboardDay struct {
	Date        string `json:"date"`
	Calls       int64  `json:"calls"`
	BilledCalls int64  `json:"billed_calls"`
	Spend       string `json:"spend"`
}

type dashboardService struct {
	ServiceID   uint64  `json:"service_id"`
	Name        *string `json:"name"` // null for a deleted service
	Slug        *string `json:"slug"`
	Calls       int64   `json:"calls"`
	BilledCalls int64   `json:"billed_calls"`
	Spend       string  `json:"spend"`
}

type platformDay struct {
	Date        string `json:"date"`
	Calls       int64  `json:"calls"`
	BilledCalls int64  `json:"billed_calls"`
	Revenue     string `json:"revenue"`
	Cost        string `json:"cost"`
	Margin      string `json:"margin"`
}

type platformService struct {
	ServiceID   uint64  `json:"service_id"`
	Name        *string `json:"name"`
	Slug        *string `json:"slug"`
	Calls       int64   `json:"calls"`
	BilledCalls int64   `json:"billed_calls"`
	Revenue     string  `json:"revenue"`
	Cost        string  `json:"cost"`
	Margin      string  `json:"margin"`
}

type usersByStatus struct {
	Active  int64 `json:"active"`
	Pending int64 `json:"pending"`
	Blocked int64 `json:"blocked"`
}

type platformResponse struct {
	Revenue                string            `json:"revenue"`
	Cost                   string            `json:"cost"`
	Margin                 string            `json:"margin"`
	Calls                  usageCounts       `json:"calls"`
	Days                   []platformDay     `json:"days"`
	TopServices            []platformService `json:"top_services"`
	PendingBalanceRequests int64             `json:"pending_balance_requests"`
	UsersByStatus          usersByStatus     `json:"users_by_status"`
}

type dashboardResponse struct {
	Timezone    string             `json:"timezone"`
	From        string             `json:"from"`
	To          string             `json:"to"`
	Balance     string             `json:"balance"`
	TotalSpent  string             `json:"total_spent"`
	Spend       string             `json:"spend"`
	Calls       usageCounts        `json:"calls"`
	Days        []dashboardDay     `json:"days"`
	TopServices []dashboardService `json:"top_services"`
	Platform    *platformResponse  `json:"platform,omitempty"` // admins only
}

func nameOf(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toDashboardResponse(d *history.Dashboard) dashboardResponse {
	out := dashboardResponse{
		Timezone: d.Zone, From: d.From, To: d.To,
		Balance: inr.Format2(d.User.Balance), TotalSpent: inr.Format2(d.User.TotalSpent),
		Spend: inr.Format4(d.Usage.Revenue), Calls: toUsageCounts(d.Usage),
		Days: web.MapSlice(d.Days, func(x *history.DayUsage) dashboardDay {
			return dashboardDay{Date: x.Day, Calls: x.Calls, BilledCalls: x.Success, Spend: inr.Format4(x.Revenue)}
		}),
		TopServices: web.MapSlice(d.TopServices, func(x *history.ServiceUsage) dashboardService {
			return dashboardService{ServiceID: x.ServiceID, Name: nameOf(x.Name), Slug: nameOf(x.Slug),
				Calls: x.Calls, BilledCalls: x.Success, Spend: inr.Format4(x.Revenue)}
		}),
	}
	if p := d.Platform; p != nil {
		out.Platform = &platformResponse{
			Revenue: inr.Format4(p.Usage.Revenue), Cost: inr.Format4(p.Usage.Cost), Margin: inr.Format4(p.Usage.Margin()),
			Calls: toUsageCounts(p.Usage),
			Days: web.MapSlice(p.Days, func(x *history.DayUsage) platformDay {
				return platformDay{Date: x.Day, Calls: x.Calls, BilledCalls: x.Success,
					Revenue: inr.Format4(x.Revenue), Cost: inr.Format4(x.Cost), Margin: inr.Format4(x.Margin())}
			}),
			TopServices: web.MapSlice(p.TopServices, func(x *history.ServiceUsage) platformService {
				return platformService{ServiceID: x.ServiceID, Name: nameOf(x.Name), Slug: nameOf(x.Slug),
					Calls: x.Calls, BilledCalls: x.Success,
					Revenue: inr.Format4(x.Revenue), Cost: inr.Format4(x.Cost), Margin: inr.Format4(x.Margin())}
			}),
			PendingBalanceRequests: p.PendingBalanceRequests,
			UsersByStatus: usersByStatus{Active: p.UsersByStatus[user.StatusActive], Pending: p.UsersByStatus[user.StatusPending],
				Blocked: p.UsersByStatus[user.StatusBlocked]},
		}
	}
	return out
}

func (h *Handler) Dashboard(c echo.Context) error {
	d, err := h.app.History.Dashboard(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toDashboardResponse(d))
}
