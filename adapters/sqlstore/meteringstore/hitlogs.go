package meteringstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// HitRow is an api_hit_logs row.
type HitRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID          uint64     `gorm:"column:user_id"`
	ServiceID       uint64     `gorm:"column:api_service_id"`
	APIKeyID        uint64     `gorm:"column:api_key_id"`
	RequestID       string     `gorm:"column:request_id"`
	RequestPayload  string     `gorm:"column:request_payload;->"`  // hit_payloads, read through payloadJoin
	ResponsePayload *string    `gorm:"column:response_payload;->"` // ditto
	ChargeAmount    string     `gorm:"column:charge_amount"`
	CostAmount      string     `gorm:"column:cost_amount"`
	ReservedAmount  string     `gorm:"column:reserved_amount"`
	AdmittedAmount  *string    `gorm:"column:admitted_amount"`
	Uncharged       *string    `gorm:"column:uncharged"`
	ResellerID      *uint64    `gorm:"column:reseller_id"`
	Commission      string     `gorm:"column:commission"`
	SettlementID    *uint64    `gorm:"column:commission_settlement_id;->"` // set by commissionStore.Claim only
	IPAddress       string     `gorm:"column:ip_address"`
	Status          string     `gorm:"column:status"`
	Outcome         string     `gorm:"column:outcome"`
	ResponseTimeMs  int        `gorm:"column:response_time_ms"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (HitRow) TableName() string { return "api_hit_logs" }

func toHitRow(h *hitlog.Hit) (HitRow, error) {
	var w sqlbase.MoneyWriter
	r := HitRow{
		ID:              h.ID,
		UserID:          h.UserID,
		ServiceID:       h.ServiceID,
		APIKeyID:        h.APIKeyID,
		RequestID:       h.RequestID,
		RequestPayload:  h.RequestPayload,
		ResponsePayload: h.ResponsePayload,
		ChargeAmount:    w.Put(sqlbase.ColCharge, h.ChargeAmount),
		CostAmount:      w.Put(sqlbase.ColCost, h.CostAmount),
		ReservedAmount:  w.Put(sqlbase.ColReserved, h.Reserved),
		AdmittedAmount:  w.PutPtr(sqlbase.ColAdmitted, h.Admitted),
		Uncharged:       sqlbase.NullString(h.Uncharged),
		ResellerID:      h.ResellerID,
		Commission:      w.Put(sqlbase.ColCommission, h.Commission),
		IPAddress:       h.IPAddress,
		Status:          string(h.Status),
		ResponseTimeMs:  h.ResponseTimeMs,
		CreatedAt:       sqlbase.Stamp(h.CreatedAt),
		UpdatedAt:       sqlbase.Stamp(h.UpdatedAt),
	}
	if r.Status == "" {
		r.Status = string(hitlog.StatusSuccess)
	}
	r.Outcome = Outcome(hitlog.Status(r.Status))
	return r, w.Err
}

// Outcome is the outcome column of a hit with status st (migration
// 00010): the status, except that a pending hit reads success. The list
// indexes carry it instead of the status, so a pending hit that succeeds
// changes none of them; only a failure writes it again.
func Outcome(st hitlog.Status) string {
	if st == hitlog.StatusPending {
		return string(hitlog.StatusSuccess)
	}
	return string(st)
}

// outcomeMoves reports whether settling the pending hits[i], i in part,
// changes an outcome: whether one of them did not succeed. Settlements set
// the outcome only then (SQLite rewrites the index entries of every column
// an UPDATE sets, even to the same value).
func outcomeMoves(hits []*hitlog.Hit, part []int) bool {
	return slices.ContainsFunc(part, func(i int) bool { return Outcome(hits[i].Status) != string(hitlog.StatusSuccess) })
}

// commissionMoves reports whether settling hits[i], i in part, writes a
// commission: whether one of them earned one (a reseller's customer's
// success). Pending hits are written with none, so the others leave the
// column out.
func commissionMoves(hits []*hitlog.Hit, part []int) bool {
	return slices.ContainsFunc(part, func(i int) bool { return !hits[i].Commission.IsZero() })
}

func toDomainHit(r *HitRow) (hitlog.Hit, error) {
	var w sqlbase.MoneyWriter
	h := hitlog.Hit{
		ID:                     r.ID,
		UserID:                 r.UserID,
		ServiceID:              r.ServiceID,
		APIKeyID:               r.APIKeyID,
		RequestID:              r.RequestID,
		RequestPayload:         r.RequestPayload,
		ResponsePayload:        r.ResponsePayload,
		ChargeAmount:           w.Get(sqlbase.ColCharge, r.ChargeAmount),
		CostAmount:             w.Get(sqlbase.ColCost, r.CostAmount),
		Reserved:               w.Get(sqlbase.ColReserved, r.ReservedAmount),
		Admitted:               w.GetPtr(sqlbase.ColAdmitted, r.AdmittedAmount),
		Uncharged:              sqlbase.Deref(r.Uncharged),
		ResellerID:             r.ResellerID,
		Commission:             commissionFromDB(&w, r.Commission),
		IPAddress:              r.IPAddress,
		CommissionSettlementID: r.SettlementID,
		Status:                 hitlog.Status(r.Status),
		ResponseTimeMs:         r.ResponseTimeMs,
		CreatedAt:              sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:              sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if w.Err != nil {
		return h, fmt.Errorf("hit %s: %w", r.RequestID, w.Err)
	}
	return h, nil
}

// commissionFromDB reads the commission column; a row read without it
// (the exports' explicit column list) has none.
func commissionFromDB(w *sqlbase.MoneyWriter, s string) decimal.Decimal {
	if s == "" {
		return decimal.Zero
	}
	return w.Get(sqlbase.ColCommission, s)
}

// HitStore is the database's hitlog.Repository.
type HitStore struct{ sqlbase.Base }

var _ hitlog.Repository = (*HitStore)(nil)

// Insert inserts h and its payloads, and adds a final one to the usage
// roll-up, in one transaction.
func (s *HitStore) Insert(ctx context.Context, h *hitlog.Hit) error {
	r, err := toHitRow(h)
	if err != nil {
		return fmt.Errorf("insert hit: %w", err)
	}
	r.ID = 0
	err = s.withinTx(ctx, func(s *HitStore) error {
		if err := s.Conn(ctx).Create(&r).Error; err != nil {
			return fmt.Errorf("insert hit %s: %w", h.RequestID, sqlbase.Translate(err))
		}
		h.ID = r.ID
		h.CreatedAt, h.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
		if err := s.insertPayloads(ctx, []*hitlog.Hit{h}); err != nil {
			return err
		}
		return s.countFinal(ctx, []*hitlog.Hit{h})
	})
	if err != nil {
		h.ID = 0
	}
	return err
}

// Finish settles a pending hit by id (or by request id when the id is
// unknown) and adds it to the usage roll-up, in one transaction.
func (s *HitStore) Finish(ctx context.Context, h *hitlog.Hit) error {
	return s.withinTx(ctx, func(s *HitStore) error { return s.finish(ctx, h) })
}

func (s *HitStore) finish(ctx context.Context, h *hitlog.Hit) error {
	var w sqlbase.MoneyWriter
	now := sqlbase.DBTime(time.Now())
	values := map[string]any{
		"status":           string(h.Status),
		"outcome":          Outcome(h.Status),
		"charge_amount":    w.Put(sqlbase.ColCharge, h.ChargeAmount),
		"cost_amount":      w.Put(sqlbase.ColCost, h.CostAmount),
		"commission":       w.Put(sqlbase.ColCommission, h.Commission),
		"response_time_ms": h.ResponseTimeMs,
		"updated_at":       now,
	}
	if w.Err != nil {
		return fmt.Errorf("finish hit %s: %w", h.RequestID, w.Err)
	}
	byHit := func() *gorm.DB {
		if h.ID != 0 {
			return s.ByPrimaryKey(ctx, &HitRow{}).Where("id = ?", h.ID)
		}
		return s.Conn(ctx).Model(&HitRow{}).Where("request_id = ?", h.RequestID)
	}
	// Conditional on pending: a call and crash recovery may race to settle
	// the same hit; only one moves it.
	res := byHit().Where("status = ?", string(hitlog.StatusPending)).Updates(values)
	if res.Error != nil {
		return fmt.Errorf("finish hit %s: %w", h.RequestID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		var n int64
		if err := byHit().Count(&n).Error; err != nil {
			return fmt.Errorf("finish hit %s: %w", h.RequestID, sqlbase.Translate(err))
		}
		if n == 0 {
			return errs.ErrNotFound
		}
		return hitlog.ErrNotPending
	}
	h.UpdatedAt = now
	settled := *h
	if settled.ID == 0 || settled.UserID == 0 || settled.ServiceID == 0 || settled.CreatedAt.IsZero() {
		// The payload's and the roll-up row's keys, from the row itself.
		var r HitRow
		if err := byHit().Select("id, user_id, api_service_id, created_at").Take(&r).Error; err != nil {
			return fmt.Errorf("finish hit %s: %w", h.RequestID, sqlbase.Translate(err))
		}
		settled.ID, settled.UserID, settled.ServiceID, settled.CreatedAt = r.ID, r.UserID, r.ServiceID, sqlbase.TimeFromDB(r.CreatedAt)
	}
	if err := s.settlePayloads(ctx, []*hitlog.Hit{&settled}); err != nil {
		return err
	}
	return s.countFinal(ctx, []*hitlog.Hit{&settled})
}

func (s *HitStore) ByRequestID(ctx context.Context, requestID string) (*hitlog.Hit, error) {
	var r HitRow
	q := s.Conn(ctx).Model(&HitRow{}).Select(withPayloads).Joins(payloadJoin(s.Base)).Where("api_hit_logs.request_id = ?", requestID)
	if err := q.Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, errs.ErrNotFound)
	}
	h, err := toDomainHit(&r)
	if err != nil {
		return nil, err
	}
	return &h, nil
}

// hitFilter narrows a hit query to f's filters. From and To are inclusive
// bounds on created_at.
func hitFilter(f hitlog.Filter) func(*gorm.DB) *gorm.DB {
	return func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.ServiceID != nil {
			q = q.Where("api_service_id = ?", *f.ServiceID)
		}
		if f.APIKeyID != nil {
			q = q.Where("api_key_id = ?", *f.APIKeyID)
		}
		if f.Status != "" {
			q = statusFilter(q, f)
		}
		if f.From != nil {
			q = q.Where("created_at >= ?", sqlbase.DBTime(*f.From))
		}
		if f.To != nil {
			q = q.Where("created_at <= ?", sqlbase.DBTime(*f.To))
		}
		return q
	}
}

// statusFilter narrows q to f.Status. With a user, service or key filter the
// list index that serves it carries the outcome, not the status (migration
// 00010): failed and insufficient_balance are their outcome, read from the
// index alone; success and pending share the outcome success and are told
// apart by the status in the row (success is most hits, so a page fills
// after few rows; pending hits are few). Alone, the status filter is read
// from the (status, created_at) index.
func statusFilter(q *gorm.DB, f hitlog.Filter) *gorm.DB {
	st := f.Status
	if f.UserID == nil && f.ServiceID == nil && f.APIKeyID == nil {
		return q.Where("status = ?", string(st))
	}
	q = q.Where("outcome = ?", Outcome(st))
	if Outcome(st) == string(hitlog.StatusSuccess) {
		q = q.Where("status = ?", string(st))
	}
	return q
}

// hitOrder is newest first: created_at, then id, descending. Every filter
// leads an index that continues with created_at (user, service, key,
// status, or created_at alone; migrations 00004 and 00010), and the other
// filter columns follow inside it (the status as the outcome), so a page
// or a capped count, with or without a date range, is read in index order
// from the index alone; only success and pending beside another filter
// read the status in the row (statusFilter).
const hitOrder = "created_at DESC, id DESC"

// List lists hits newest first, counting at most ListWindow+1 matches.
func (s *HitStore) List(ctx context.Context, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	total, err := sqlbase.CappedCount(s.Conn(ctx).Model(&HitRow{}).Scopes(hitFilter(f)), hitlog.ListWindow)
	if err != nil {
		return nil, 0, fmt.Errorf("count hits: %w", err)
	}
	// Deferred join: the page's ids come from the index alone (no row is
	// read for the skipped ones), then only the page's rows are read.
	limit, offset := sqlbase.Paging(f.Page, f.PerPage)
	ids := s.Conn(ctx).Model(&HitRow{}).Select("id").Scopes(hitFilter(f)).Order(hitOrder).Limit(limit).Offset(offset)
	var rows []HitRow
	err = s.Conn(ctx).Model(&HitRow{}).Select(withPayloads).Joins("JOIN (?) AS page ON page.id = api_hit_logs.id", ids).
		Joins(payloadJoin(s.Base)).Order("api_hit_logs.created_at DESC, api_hit_logs.id DESC").Find(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("list hits: %w", sqlbase.Translate(err))
	}
	return toDomainHits(rows, total)
}

// ForEach visits the hits matching f newest first (created_at, then id,
// descending: the list's order) in pages of at most exportPage rows, each
// a short query. A page is read by created_at alone ("created_at < the
// previous page's last"), which the listing indexes serve in order; a
// tie-break on id would make the database sort every remaining row of the
// filter on every page. Rows sharing the page's last created_at are then
// read as their own group (equality on created_at, keyset on id), so rows
// with equal created_at are neither skipped nor repeated. Payloads are read
// cut in SQL (one character more than kept, to tell a cut one), so a long
// export never carries the large payloads across the wire.
//
// The next page is read while fn visits the current one (one page ahead,
// so memory stays flat), and each query's rows are read whole before its
// connection goes back: a slow consumer holds no connection.
func (s *HitStore) ForEach(ctx context.Context, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan []HitRow, 1)
	read := make(chan error, 1)
	go func() {
		defer close(pages)
		read <- s.readNewest(ctx, f, func(rows []HitRow) bool {
			select {
			case pages <- rows:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	for rows := range pages {
		if err := visitExported(rows, fn); err != nil {
			cancel()
			for range pages { // until the reader has stopped
			}
			<-read
			return fmt.Errorf("export hits: %w", err)
		}
	}
	if err := <-read; err != nil {
		return fmt.Errorf("export hits: %w", err)
	}
	return nil
}

// visitExported gives fn the page's hits, payloads cut to ExportPayloadChars.
func visitExported(rows []HitRow, fn func(hitlog.Hit) error) error {
	for i := range rows {
		h, err := toDomainHit(&rows[i])
		if err != nil {
			return err
		}
		h.RequestPayload = cutPayload(h.RequestPayload, hitlog.ExportPayloadChars)
		if h.ResponsePayload != nil {
			p := cutPayload(*h.ResponsePayload, hitlog.ExportPayloadChars)
			h.ResponsePayload = &p
		}
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

// exportColumns are the columns an export reads, in scanExported's order.
const exportColumns = "id, user_id, api_service_id, api_key_id, request_id, " +
	"COALESCE(SUBSTR(p.request_payload, 1, ?), ''), SUBSTR(p.response_payload, 1, ?), " +
	"charge_amount, cost_amount, reserved_amount, ip_address, status, response_time_ms, created_at, updated_at"

// scanExported reads a query of exportColumns whole, without reflection.
func scanExported(q *gorm.DB, size int) ([]HitRow, error) {
	rows, err := q.Rows()
	if err != nil {
		return nil, sqlbase.Translate(err)
	}
	defer rows.Close()
	out := make([]HitRow, 0, size)
	for rows.Next() {
		var r HitRow
		if err := rows.Scan(&r.ID, &r.UserID, &r.ServiceID, &r.APIKeyID, &r.RequestID, &r.RequestPayload, &r.ResponsePayload,
			&r.ChargeAmount, &r.CostAmount, &r.ReservedAmount, &r.IPAddress, &r.Status, &r.ResponseTimeMs, &r.CreatedAt, &r.UpdatedAt); err != nil {
			return nil, sqlbase.Translate(err)
		}
		out = append(out, r)
	}
	return out, sqlbase.Translate(rows.Err())
}

// readNewest reads the pages of ForEach, in order, each sorted, and hands
// each to emit; it stops when emit returns false (ctx ended).
func (s *HitStore) readNewest(ctx context.Context, f hitlog.Filter, emit func([]HitRow) bool) error {
	size := sqlbase.ExportPageSize(s.ExportPage)
	n := hitlog.ExportPayloadChars + 1
	query := func() *gorm.DB {
		return s.Conn(ctx).Model(&HitRow{}).Joins(payloadJoin(s.Base)).Scopes(hitFilter(f)).Select(exportColumns, n, n)
	}
	send := func(rows []HitRow) error {
		// Within one created_at the page's rows come in no set order.
		slices.SortStableFunc(rows, func(a, b HitRow) int {
			if c := sqlbase.TimeFromDB(b.CreatedAt).Compare(sqlbase.TimeFromDB(a.CreatedAt)); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID)
		})
		if len(rows) > 0 && !emit(rows) {
			return ctx.Err()
		}
		return nil
	}
	var before *time.Time
	for {
		q := query().Order("created_at DESC")
		if before != nil {
			q = q.Where("created_at < ?", *before)
		}
		rows, err := scanExported(q.Limit(size), size)
		if err != nil {
			return err
		}
		if len(rows) < size {
			return send(rows)
		}
		last := sqlbase.DBTime(sqlbase.TimeFromDB(rows[len(rows)-1].CreatedAt))
		cut := len(rows)
		for cut > 0 && sqlbase.DBTime(sqlbase.TimeFromDB(rows[cut-1].CreatedAt)).Equal(last) {
			cut--
		}
		if err := send(rows[:cut]); err != nil {
			return err
		}
		// The whole group of the page's last created_at, newest id first.
		var lastID uint64
		for {
			g := query().Where("created_at = ?", last).Order("id DESC")
			if lastID != 0 {
				g = g.Where("id < ?", lastID)
			}
			group, err := scanExported(g.Limit(size), size)
			if err != nil {
				return err
			}
			if err := send(group); err != nil {
				return err
			}
			if len(group) < size {
				break
			}
			lastID = group[len(group)-1].ID
		}
		before = &last
	}
}

// cutPayload keeps the first n characters of s, ending a cut one with "…".
func cutPayload(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

func toDomainHits(rows []HitRow, total int64) ([]hitlog.Hit, int64, error) {
	out, err := sqlbase.ConvertRows(rows, toDomainHit)
	return out, total, err
}

// ForEachByUser streams a user's hits in id order. fn must not use the store
// while it runs inside a transaction: the rows hold the connection.
func (s *HitStore) ForEachByUser(ctx context.Context, userID uint64, fn func(hitlog.Hit) error) error {
	q := s.Conn(ctx).Model(&HitRow{}).Where("user_id = ?", userID).Order("id")
	if err := sqlbase.ForEachRow(q, toDomainHit, fn); err != nil {
		return fmt.Errorf("read hits of user %d: %w", userID, err)
	}
	return nil
}

// Pending lists hits still pending that were created before `before`, oldest first.
func (s *HitStore) Pending(ctx context.Context, before time.Time, limit int) ([]hitlog.Hit, error) {
	if limit <= 0 {
		limit = 100
	}
	var rows []HitRow
	err := s.Conn(ctx).Where("status = ? AND created_at < ?", string(hitlog.StatusPending), sqlbase.DBTime(before)).
		Order("created_at, id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list pending hits: %w", sqlbase.Translate(err))
	}
	out, _, err := toDomainHits(rows, 0)
	return out, err
}
