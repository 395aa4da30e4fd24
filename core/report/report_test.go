package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/hitlog"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func kolkata(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestDayOfAcrossUTCMidnight(t *testing.T) {
	loc := kolkata(t)
	cases := []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 11, 20, 18, 29, 59, 999_999_000, time.UTC), "2026-11-20"}, // 23:59:59.999999 IST
		{time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC), "2026-11-21"},            // local midnight
		{time.Date(2026, 11, 20, 23, 59, 0, 0, time.UTC), "2026-11-21"},            // before UTC midnight, already the 21st
		{time.Date(2026, 11, 21, 0, 1, 0, 0, time.UTC), "2026-11-21"},              // after UTC midnight, still the 21st
	}
	for _, c := range cases {
		if got := DayOf(c.utc, loc); got != c.want {
			t.Errorf("DayOf(%s) = %s, want %s", c.utc, got, c.want)
		}
	}
	start, err := DayStart("2026-11-21", loc)
	if err != nil || !start.Equal(time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC)) {
		t.Fatalf("DayStart = %s, %v", start, err)
	}
	if _, err := DayStart("21/11/2026", loc); err == nil {
		t.Fatal("DayStart accepted a malformed day")
	}
}

func TestDays(t *testing.T) {
	got := Days("2026-03-01", 3)
	if want := []string{"2026-02-27", "2026-02-28", "2026-03-01"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Days = %v, want %v", got, want)
	}
	if n := len(Days("2028-03-01", 30)); n != 30 {
		t.Fatalf("Days(30) has %d days", n)
	}
	if NextDay("2028-02-28") != "2028-02-29" || NextDay("2026-12-31") != "2027-01-01" {
		t.Fatal("NextDay does not follow the calendar")
	}
}

func TestTallyBucketsByLocalDayUserAndService(t *testing.T) {
	loc := kolkata(t)
	tally := NewTally(loc)
	late := time.Date(2026, 11, 20, 18, 29, 0, 0, time.UTC) // 23:59 on the 20th in Kolkata
	early := late.Add(2 * time.Minute)                      // 00:01 on the 21st
	tally.Add(Hit{UserID: 1, ServiceID: 5, Status: hitlog.StatusSuccess, Charge: d("0.50"), Cost: d("0.2000"), CreatedAt: late})
	tally.Add(Hit{UserID: 1, ServiceID: 5, Status: hitlog.StatusFailed, Charge: d("0"), Cost: d("0"), CreatedAt: late})
	tally.Add(Hit{UserID: 1, ServiceID: 5, Status: hitlog.StatusSuccess, Charge: d("0.50"), Cost: d("0.2000"), CreatedAt: early})
	tally.Add(Hit{UserID: 2, ServiceID: 5, Status: hitlog.StatusInsufficientBalance, CreatedAt: early})
	tally.Add(Hit{UserID: 1, ServiceID: 6, Status: hitlog.StatusPending, CreatedAt: early})

	rows := tally.Rows()
	type got struct {
		day                                     string
		user, svc                               uint64
		calls, success, failed, insuff, pending int64
		revenue, cost                           string
	}
	var gotRows []got
	for _, r := range rows {
		gotRows = append(gotRows, got{r.Day, r.UserID, r.ServiceID, r.Calls, r.Success, r.Failed, r.InsufficientBalance, r.Pending,
			r.Revenue.StringFixed(4), r.Cost.StringFixed(4)})
	}
	want := []got{
		{"2026-11-20", 1, 5, 2, 1, 1, 0, 0, "0.5000", "0.2000"},
		{"2026-11-21", 1, 5, 1, 1, 0, 0, 0, "0.5000", "0.2000"},
		{"2026-11-21", 1, 6, 1, 0, 0, 0, 1, "0.0000", "0.0000"},
		{"2026-11-21", 2, 5, 1, 0, 0, 1, 0, "0.0000", "0.0000"},
	}
	if !reflect.DeepEqual(gotRows, want) {
		t.Fatalf("rows:\n got %+v\nwant %+v", gotRows, want)
	}
}

func TestUsageAddAndMargin(t *testing.T) {
	a := Usage{Calls: 2, Success: 1, Revenue: d("1.0000"), Cost: d("1.2500")}
	a.Add(Usage{Calls: 1, Failed: 1, Revenue: d("0.1"), Cost: d("0")})
	if a.Calls != 3 || a.Success != 1 || a.Failed != 1 {
		t.Fatalf("counts %+v", a)
	}
	if m := a.Margin(); m.StringFixed(4) != "-0.1500" {
		t.Fatalf("margin %s, want -0.1500 (revenue − cost, exact)", m)
	}
	var zero Usage
	if zero.Revenue.StringFixed(4) != "0.0000" || zero.Margin().StringFixed(4) != "0.0000" {
		t.Fatal("the zero Usage is not zero money")
	}
}
