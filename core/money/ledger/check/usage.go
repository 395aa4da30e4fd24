package check

import (
	"context"
	"fmt"
	"sort"
	"time"

	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

// The usage roll-ups are exact: the hourly roll-up equals the user's final
// hits summed per service and local hour, and every closed day's daily
// roll-up equals the sum of that day's hourly rows.

// usageHour is one (service, local hour) of a user.
type usageHour struct {
	service uint64
	hour    time.Time
}

// hourTally sums a user's final hits per service and local hour.
type hourTally map[usageHour]*report.Usage

func (t hourTally) add(k usageHour, u report.Usage) {
	s := t[k]
	if s == nil {
		s = &report.Usage{}
		t[k] = s
	}
	s.Add(u)
}

// addHit counts h when it is final (the roll-up leaves pending hits out).
func (t hourTally) addHit(h hitlog.Hit, loc *time.Location) {
	if h.Status == hitlog.StatusPending {
		return
	}
	var u report.Usage
	u.AddHit(report.HitOf(&h))
	t.add(usageHour{h.ServiceID, report.HourOf(h.CreatedAt, loc)}, u)
}

// rolledUp reads the user's hourly roll-up as a tally (rows keyed by their
// local hour in loc, so a store that keeps finer rows reads the same).
func (c *Checker) rolledUp(ctx context.Context, id uint64) (hourTally, error) {
	rows, err := c.st.Reports.Hours(ctx, time.Time{}, time.Time{}, &id, true)
	if err != nil {
		return nil, fmt.Errorf("read hourly usage of user %d: %w", id, err)
	}
	t := hourTally{}
	for _, r := range rows {
		t.add(usageHour{r.ServiceID, report.HourOf(r.Hour, c.loc)}, r.Usage)
	}
	return t, nil
}

// usageDiffs lists where the hits and the roll-up disagree.
func usageDiffs(hits, rolled hourTally) []string {
	keys := map[usageHour]bool{}
	for k := range hits {
		keys[k] = true
	}
	for k := range rolled {
		keys[k] = true
	}
	var out []string
	zero := &report.Usage{}
	for k := range keys {
		h, r := hits[k], rolled[k]
		if h == nil {
			h = zero
		}
		if r == nil {
			r = zero
		}
		if !sameUsage(*h, *r) {
			out = append(out, fmt.Sprintf("usage roll-up of service %d, hour %s: %s; its hits: %s",
				k.service, k.hour.Format(time.RFC3339), usageString(*r), usageString(*h)))
		}
	}
	sort.Strings(out)
	return out
}

func sameUsage(a, b report.Usage) bool {
	return a.Calls == b.Calls && a.Success == b.Success && a.Failed == b.Failed &&
		a.InsufficientBalance == b.InsufficientBalance && a.Revenue.Equal(b.Revenue) && a.Cost.Equal(b.Cost)
}

func usageString(u report.Usage) string {
	return fmt.Sprintf("%d calls (%d success, %d failed, %d insufficient), revenue %s, cost %s",
		u.Calls, u.Success, u.Failed, u.InsufficientBalance, u.Revenue.StringFixed(4), u.Cost.StringFixed(4))
}

// checkUsage compares the user's hits (tallied by checkHits) with the
// hourly roll-up, then the closed days' daily roll-up with the hourly one.
// On a live system a call may settle between the two reads: a mismatch is
// reported only if it is still there when both are read again.
func (c *Checker) checkUsage(ctx context.Context, id uint64, hits hourTally, bad func(string, ...any)) error {
	rolled, err := c.rolledUp(ctx, id)
	if err != nil {
		return err
	}
	if len(usageDiffs(hits, rolled)) > 0 {
		hits = hourTally{}
		err := c.st.Hits.ForEachByUser(ctx, id, func(h hitlog.Hit) error { hits.addHit(h, c.loc); return nil })
		if err != nil {
			return fmt.Errorf("read hits of user %d: %w", id, err)
		}
		if rolled, err = c.rolledUp(ctx, id); err != nil {
			return err
		}
		for _, d := range usageDiffs(hits, rolled) {
			bad("%s", d)
		}
	}
	return c.checkClosedDays(ctx, id, rolled, bad)
}

// checkClosedDays: each closed day's daily rows of the user (in the zone
// of loc) equal the day's hourly rows.
func (c *Checker) checkClosedDays(ctx context.Context, id uint64, rolled hourTally, bad func(string, ...any)) error {
	zone := c.loc.String()
	closed, err := c.st.Reports.ClosedDays(ctx, zone, "0000-01-01", "9999-12-31")
	if err != nil {
		return fmt.Errorf("read closed days: %w", err)
	}
	if len(closed) == 0 {
		return nil
	}
	daily, err := c.st.Reports.Rollups(ctx, zone, "0000-01-01", "9999-12-31", &id)
	if err != nil {
		return fmt.Errorf("read daily roll-up of user %d: %w", id, err)
	}
	type dayService struct {
		day     string
		service uint64
	}
	fromHours := map[dayService]*report.Usage{}
	for k, u := range rolled {
		day := report.DayOf(k.hour, c.loc)
		if !closed[day] {
			continue
		}
		ds := dayService{day, k.service}
		if fromHours[ds] == nil {
			fromHours[ds] = &report.Usage{}
		}
		fromHours[ds].Add(*u)
	}
	for _, r := range daily {
		ds := dayService{r.Day, r.ServiceID}
		h := fromHours[ds]
		delete(fromHours, ds)
		if h == nil {
			h = &report.Usage{}
		}
		if !sameUsage(r.Usage, *h) {
			bad("daily roll-up of %s, service %d: %s; its hours: %s", r.Day, r.ServiceID, usageString(r.Usage), usageString(*h))
		}
	}
	for ds, h := range fromHours {
		if h.Calls != 0 {
			bad("daily roll-up of %s, service %d: missing; its hours: %s", ds.day, ds.service, usageString(*h))
		}
	}
	return nil
}
