package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"
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

// TestHourOfIsTheLocalHour: an hour of a :30 zone starts at :30 UTC, and
// every hour lies within one local day.
func TestHourOfIsTheLocalHour(t *testing.T) {
	loc := kolkata(t)
	for _, c := range []struct{ at, want time.Time }{
		{time.Date(2026, 11, 20, 18, 29, 59, 999999000, time.UTC), time.Date(2026, 11, 20, 17, 30, 0, 0, time.UTC)},
		{time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC), time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC)},
		{time.Date(2026, 11, 20, 19, 10, 0, 0, time.UTC), time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC)},
	} {
		got := HourOf(c.at, loc)
		if !got.Equal(c.want) || got.Location() != time.UTC {
			t.Fatalf("HourOf(%s) = %s, want %s", c.at, got, c.want)
		}
		if DayOf(got, loc) != DayOf(c.at, loc) {
			t.Fatalf("hour %s is not on %s's day", got, c.at)
		}
	}
}

func TestTallyBucketsHoursByLocalDayUserAndService(t *testing.T) {
	loc := kolkata(t)
	tally := NewTally(loc)
	late := HourOf(time.Date(2026, 11, 20, 18, 29, 0, 0, time.UTC), loc)  // 23:00 on the 20th in Kolkata
	early := HourOf(time.Date(2026, 11, 20, 18, 31, 0, 0, time.UTC), loc) // 00:00 on the 21st
	tally.AddHour(HourRow{Hour: late, UserID: 1, ServiceID: 5, Usage: Usage{Calls: 2, Success: 1, Failed: 1, Revenue: d("0.50"), Cost: d("0.2000")}})
	tally.AddHour(HourRow{Hour: early, UserID: 1, ServiceID: 5, Usage: Usage{Calls: 1, Success: 1, Revenue: d("0.50"), Cost: d("0.2000")}})
	tally.AddHour(HourRow{Hour: early.Add(time.Hour), UserID: 1, ServiceID: 5, Usage: Usage{Calls: 1, Success: 1, Revenue: d("0.25"), Cost: d("0")}})
	tally.AddHour(HourRow{Hour: early, UserID: 2, ServiceID: 5, Usage: Usage{Calls: 1, InsufficientBalance: 1}})
	tally.AddHour(HourRow{Hour: early, UserID: 1, ServiceID: 6, Usage: Usage{Calls: 1, Failed: 1}})

	rows := tally.Rows()
	type got struct {
		day                            string
		user, svc                      uint64
		calls, success, failed, insuff int64
		revenue, cost                  string
	}
	var gotRows []got
	for _, r := range rows {
		gotRows = append(gotRows, got{r.Day, r.UserID, r.ServiceID, r.Calls, r.Success, r.Failed, r.InsufficientBalance,
			r.Revenue.StringFixed(4), r.Cost.StringFixed(4)})
	}
	want := []got{
		{"2026-11-20", 1, 5, 2, 1, 1, 0, "0.5000", "0.2000"},
		{"2026-11-21", 1, 5, 2, 2, 0, 0, "0.7500", "0.2000"},
		{"2026-11-21", 1, 6, 1, 0, 1, 0, "0.0000", "0.0000"},
		{"2026-11-21", 2, 5, 1, 0, 0, 1, "0.0000", "0.0000"},
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
