package metering

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/metering/history"
	"paygate/core/metering/report"
)

// The dashboard and history-list schemas against their DTOs, like
// TestOpenAPISchemasMatchDTOs does for the other resources.
func TestOpenAPIReportSchemasMatchDTOs(t *testing.T) {
	doc := apischema.Load(t)
	cases := []struct {
		schema string
		dto    any
	}{
		{"WindowListMeta", web.WindowMeta{}},
		{"UsageCounts", usageCounts{}},
		{"DashboardDay", dashboardDay{}},
		{"DashboardService", dashboardService{}},
		{"PlatformDay", platformDay{}},
		{"PlatformService", platformService{}},
		{"UsersByStatus", usersByStatus{}},
		{"PlatformDashboard", platformResponse{}},
		{"Dashboard", dashboardResponse{}},
		{"TransactionList", web.WindowListResponse[TransactionResponse]{}},
		{"HitLogList", HitListResponse{}},
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) {
			s := apischema.Object(t, doc, tc.schema)
			fields := apischema.JSONFields(reflect.TypeOf(tc.dto))
			for name, always := range fields {
				if s.Properties[name] == nil {
					t.Errorf("%T field %q is not a property of schema %s", tc.dto, name, tc.schema)
					continue
				}
				if always != slices.Contains(s.Required, name) {
					t.Errorf("schema %s: %q required = %v, but the DTO always writes it = %v", tc.schema, name, !always, always)
				}
			}
			for name := range s.Properties {
				if _, ok := fields[name]; !ok {
					t.Errorf("schema %s property %q is not a field of %T", tc.schema, name, tc.dto)
				}
			}
		})
	}
}

func TestOpenAPIReportSchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	d := decimal.RequireFromString
	days := report.Days("2026-11-21", history.DashboardDays)
	dayList := make([]history.DayUsage, len(days))
	for i, day := range days {
		dayList[i] = history.DayUsage{Day: day}
	}
	dayList[29].Usage = report.Usage{Calls: 3, Success: 2, Failed: 1, Revenue: d("1.0000"), Cost: d("1.5")}
	top := []history.ServiceUsage{
		{ServiceID: 3, Name: "SMS", Slug: "sms-gateway-api", Usage: report.Usage{Calls: 3, Success: 2, Revenue: d("1"), Cost: d("1.5")}},
		{ServiceID: 9, Usage: report.Usage{Calls: 1}}, // deleted service
	}
	u := &user.User{ID: 7, Balance: d("99.5"), TotalSpent: d("0.5")}
	mine := &history.Dashboard{Zone: "Asia/Kolkata", From: days[0], To: days[29], User: u, Usage: dayList[29].Usage, Days: dayList, TopServices: top}
	admin := *mine
	admin.Platform = &history.Platform{Usage: dayList[29].Usage, Days: dayList, TopServices: top, PendingBalanceRequests: 2,
		UsersByStatus: map[user.Status]int64{user.StatusActive: 4}}
	empty := &history.Dashboard{Zone: "UTC", From: days[0], To: days[29], User: u, Days: dayList}

	meta := web.WindowMeta{ListMeta: web.ListMeta{Page: 500, PerPage: 20, Total: 10000}, TotalCapped: true}
	cases := []struct {
		name, schema string
		body         any
	}{
		{"user dashboard", "Dashboard", toDashboardResponse(mine)},
		{"admin dashboard with a negative margin", "Dashboard", toDashboardResponse(&admin)},
		{"empty dashboard", "Dashboard", toDashboardResponse(empty)},
		{"capped hit list", "HitLogList", HitListResponse{Data: []HitResponse{}, Meta: meta, PayloadRetentionSeconds: 3600}},
		{"transaction list", "TransactionList", web.WindowListResponse[TransactionResponse]{Data: []TransactionResponse{}, Meta: web.WindowMeta{ListMeta: web.ListMeta{Page: 1, PerPage: 20, Total: 0}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.body)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			if err := apischema.Object(t, doc, tc.schema).VisitJSON(v, openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.MultiErrors()); err != nil {
				t.Errorf("%s does not match schema %s: %v\nbody: %s", tc.name, tc.schema, err, b)
			}
		})
	}
}
