package meteringstore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

// The roll-up holds money in integer ten-thousandths (units): hit amounts
// have 4 places, so the conversion is exact, and SUM() over BIGINT columns
// is exact integer arithmetic on both databases (SQLite has no exact
// decimal SUM over TEXT).
const moneyUnitPlaces = 4

func toUnits(what string, d decimal.Decimal) (int64, error) {
	u := d.Shift(moneyUnitPlaces)
	if !u.IsInteger() || !u.Abs().LessThan(decimal.New(1, 18)) {
		return 0, fmt.Errorf("%s %s is not a whole number of ten-thousandths within range", what, d)
	}
	return u.IntPart(), nil
}

func fromUnits(n int64) decimal.Decimal { return decimal.New(n, -moneyUnitPlaces) }

type reportHitRow struct {
	UserID       uint64     `gorm:"column:user_id"`
	ServiceID    uint64     `gorm:"column:api_service_id"`
	Status       string     `gorm:"column:status"`
	ChargeAmount string     `gorm:"column:charge_amount"`
	CostAmount   string     `gorm:"column:cost_amount"`
	CreatedAt    *time.Time `gorm:"column:created_at"`
}

func ToReportHit(r *reportHitRow) (report.Hit, error) {
	var w sqlbase.MoneyWriter
	h := report.Hit{
		UserID: r.UserID, ServiceID: r.ServiceID, Status: hitlog.Status(r.Status),
		Charge: w.Get(sqlbase.ColCharge, r.ChargeAmount), Cost: w.Get(sqlbase.ColCost, r.CostAmount), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt),
	}
	return h, w.Err
}

type rollupDayRow struct {
	Zone     string    `gorm:"column:zone;primaryKey"`
	Day      string    `gorm:"column:day;primaryKey"`
	ClosedAt time.Time `gorm:"column:closed_at"`
}

func (rollupDayRow) TableName() string { return "hit_rollup_days" }

// usageCounts are the columns of calls and money the daily and the hourly
// roll-up share (a final hit's usage: nothing pending).
type usageCounts struct {
	Calls             int64 `gorm:"column:calls"`
	SuccessCalls      int64 `gorm:"column:success_calls"`
	FailedCalls       int64 `gorm:"column:failed_calls"`
	InsufficientCalls int64 `gorm:"column:insufficient_calls"`
	RevenueUnits      int64 `gorm:"column:revenue_units"`
	CostUnits         int64 `gorm:"column:cost_units"`
}

// usageSumColumns sums usageCounts' columns in SQL: BIGINT counts and
// units, exact on both databases.
const usageSumColumns = "SUM(calls) AS calls, SUM(success_calls) AS success_calls, SUM(failed_calls) AS failed_calls, " +
	"SUM(insufficient_calls) AS insufficient_calls, SUM(revenue_units) AS revenue_units, SUM(cost_units) AS cost_units"

func toUsageCounts(u report.Usage) (usageCounts, error) {
	if u.Pending != 0 {
		return usageCounts{}, fmt.Errorf("%d pending calls in a roll-up", u.Pending)
	}
	rev, err := toUnits("revenue", u.Revenue)
	if err != nil {
		return usageCounts{}, err
	}
	cost, err := toUnits("cost", u.Cost)
	if err != nil {
		return usageCounts{}, err
	}
	return usageCounts{Calls: u.Calls, SuccessCalls: u.Success, FailedCalls: u.Failed, InsufficientCalls: u.InsufficientBalance,
		RevenueUnits: rev, CostUnits: cost}, nil
}

func (c usageCounts) usage() report.Usage {
	return report.Usage{Calls: c.Calls, Success: c.SuccessCalls, Failed: c.FailedCalls, InsufficientBalance: c.InsufficientCalls,
		Revenue: fromUnits(c.RevenueUnits), Cost: fromUnits(c.CostUnits)}
}

type rollupRow struct {
	Zone      string      `gorm:"column:zone;primaryKey"`
	Day       string      `gorm:"column:day;primaryKey"`
	UserID    uint64      `gorm:"column:user_id;primaryKey;autoIncrement:false"`
	ServiceID uint64      `gorm:"column:api_service_id;primaryKey;autoIncrement:false"`
	Counts    usageCounts `gorm:"embedded"`
}

func (rollupRow) TableName() string { return "hit_daily_rollups" }

func toRollupRow(zone string, r *report.Row) (rollupRow, error) {
	c, err := toUsageCounts(r.Usage)
	if err != nil {
		return rollupRow{}, fmt.Errorf("roll-up of %s user %d service %d: %w", r.Day, r.UserID, r.ServiceID, err)
	}
	return rollupRow{Zone: zone, Day: r.Day, UserID: r.UserID, ServiceID: r.ServiceID, Counts: c}, nil
}

func toDomainRollup(r *rollupRow) report.Row {
	return report.Row{Day: r.Day, UserID: r.UserID, ServiceID: r.ServiceID, Usage: r.Counts.usage()}
}

// ReportStore is the database's report.Repository.
type ReportStore struct{ sqlbase.Base }

var _ report.Repository = (*ReportStore)(nil)

func (s *ReportStore) ClosedDays(ctx context.Context, zone, first, last string) (map[string]bool, error) {
	var days []string
	err := s.Conn(ctx).Model(&rollupDayRow{}).Where("zone = ? AND day >= ? AND day <= ?", zone, first, last).Pluck("day", &days).Error
	if err != nil {
		return nil, fmt.Errorf("read rolled-up days: %w", sqlbase.Translate(err))
	}
	out := make(map[string]bool, len(days))
	for _, d := range days {
		out[d] = true
	}
	return out, nil
}

func (s *ReportStore) MarkDayClosed(ctx context.Context, zone, day string, at time.Time) error {
	err := s.Conn(ctx).Create(&rollupDayRow{Zone: zone, Day: day, ClosedAt: sqlbase.DBTime(at)}).Error
	if err != nil {
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return report.ErrDayClosed
		}
		return fmt.Errorf("mark %s rolled up: %w", day, sqlbase.Translate(err))
	}
	return nil
}

func (s *ReportStore) InsertRollups(ctx context.Context, zone string, rows []report.Row) error {
	if len(rows) == 0 {
		return nil
	}
	out := make([]rollupRow, len(rows))
	for i := range rows {
		r, err := toRollupRow(zone, &rows[i])
		if err != nil {
			return err
		}
		out[i] = r
	}
	// 10 columns a row: 500 rows stay far below either database's limit
	// on bound parameters.
	if err := s.Conn(ctx).CreateInBatches(out, 500).Error; err != nil {
		return fmt.Errorf("insert roll-up: %w", sqlbase.Translate(err))
	}
	return nil
}

// Rollups sums per day and service in SQL: the sums are of BIGINT counts
// and units, exact on both databases.
func (s *ReportStore) Rollups(ctx context.Context, zone, first, last string, userID *uint64) ([]report.Row, error) {
	q := s.Conn(ctx).Model(&rollupRow{}).
		Select("day, api_service_id, "+usageSumColumns).
		Where("zone = ? AND day >= ? AND day <= ?", zone, first, last).
		Group("day, api_service_id").Order("day, api_service_id")
	if userID != nil {
		q = q.Where("user_id = ?", *userID)
	}
	var rows []rollupRow
	if err := q.Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("read roll-up: %w", sqlbase.Translate(err))
	}
	out := make([]report.Row, len(rows))
	for i := range rows {
		out[i] = toDomainRollup(&rows[i])
		if userID != nil {
			out[i].UserID = *userID
		}
	}
	return out, nil
}

func (s *ReportStore) PendingBalanceRequests(ctx context.Context) (int64, error) {
	var n int64
	if err := s.Conn(ctx).Table("balance_requests").Where("status = ?", "pending").Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count pending balance requests: %w", sqlbase.Translate(err))
	}
	return n, nil
}

func (s *ReportStore) UsersByStatus(ctx context.Context) (map[user.Status]int64, error) {
	var rows []struct {
		Status string
		N      int64
	}
	err := s.Conn(ctx).Table("users").Select("status, COUNT(*) AS n").Where("deleted_at IS NULL").Group("status").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count users by status: %w", sqlbase.Translate(err))
	}
	out := map[user.Status]int64{user.StatusActive: 0, user.StatusPending: 0, user.StatusBlocked: 0}
	for _, r := range rows {
		out[user.Status(r.Status)] = r.N
	}
	return out, nil
}
