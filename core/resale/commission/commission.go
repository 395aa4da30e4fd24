// Package commission credits resellers with what their customers' calls
// earned them (decisions "Resellers: commission settlement"): for each closed UTC hour and
// reseller, one ledger credit (reference_type commission) of the sum of
// the commission of its customers' successful hits created in that hour
// that no settlement counted yet. An hour is settled once it closed at
// least Grace ago and none of its hits is still pending; a
// commission_settlements row per reseller and hour (unique) makes it once:
// of racing settlers on any instance, the loser's transaction rolls back
// and counts nothing. The settlement marks the hits it counts (in its
// transaction), so a hit is credited once even across settlements keyed
// differently (local hour starts written before hours were UTC).
//
// Each run also takes back, per reseller, the reversals its settlements
// owe (a refund of a hit they credited): one debit (reference_type
// commission, reference_id the settlement) each, as far as the reseller's
// available balance goes; the rest stays due for later runs.
//
// The worker looks at the last 24 h (Lookback), the CLI at the whole
// history; an hour waits while a hit of it is pending or a customer's hold
// taken before its end is still open (a call on a hold writes its hit
// after answering, dated when it started). Sums are taken in units of
// 0.0001 as integers (SQLite keeps DECIMAL as floating point).
package commission

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/money/ledger"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// DefaultGrace is how long after an hour closed it is settled: the calls
// begun before its end have had their answers written by then.
const DefaultGrace = 2 * time.Minute

// DefaultLookback is how far back the worker looks for hours to settle
// (the CLI looks back to the first hit): an hour left waiting on a
// pending hit is settled once crash recovery refunded it, well within.
const DefaultLookback = 24 * time.Hour

// Config is the settler's; zero values take the defaults.
type Config struct {
	Location *time.Location // TIMEZONE, for descriptions only: hours are UTC; nil is UTC
	Grace    time.Duration  // 0 means DefaultGrace
	Lookback time.Duration  // 0 means DefaultLookback
	Livemode bool           // the livemode of a balance.low event (never: credits only raise)
}

// Deps are the settler's ports; Now and Log may be nil.
type Deps struct {
	Tx     store.TransactorOf[TxStores]
	Reads  Reads
	Now    func() time.Time
	Log    *slog.Logger
	Config Config
}

// Settler settles resellers' commissions by hour.
type Settler struct {
	tx    store.TransactorOf[TxStores]
	reads Reads
	now   func() time.Time
	log   *slog.Logger
	cfg   Config
}

// New builds the settler.
func New(d Deps) *Settler {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Config.Location == nil {
		d.Config.Location = time.UTC
	}
	if d.Config.Grace == 0 {
		d.Config.Grace = DefaultGrace
	}
	if d.Config.Lookback == 0 {
		d.Config.Lookback = DefaultLookback
	}
	return &Settler{tx: d.Tx, reads: d.Reads, now: d.Now, log: d.Log, cfg: d.Config}
}

// Result is what a run settled.
type Result struct {
	Settled  int // reseller-hours credited by this run
	Waiting  int // reseller-hours left for a later run: a hit still pending
	Credits  []settlement.Settlement
	Reversed decimal.Decimal // commission debited back by this run
}

// Run is the worker's round: it settles the hours closed at least Grace
// before now, within the last Lookback.
func (s *Settler) Run(ctx context.Context) (Result, error) {
	now := s.now()
	return s.settle(ctx, now.Add(-s.cfg.Grace), now.Add(-s.cfg.Grace-s.cfg.Lookback))
}

// SettleBefore settles every hour closed before at (the CLI): all of
// history, each hour at most once.
func (s *Settler) SettleBefore(ctx context.Context, at time.Time) (Result, error) {
	return s.settle(ctx, at, time.Time{})
}

// settle settles, for every reseller, the UTC hours that ended at or
// before cutoff and began at or after floor's hour, then takes back the
// reversals it owes.
func (s *Settler) settle(ctx context.Context, cutoff, floor time.Time) (Result, error) {
	res := Result{Reversed: decimal.Zero}
	end := settlement.HourStart(cutoff) // hours ending at or before cutoff start before end
	var from time.Time
	if !floor.IsZero() {
		from = settlement.HourStart(floor)
	}
	resellers, err := s.reads.Resellers(ctx)
	if err != nil {
		return res, fmt.Errorf("list resellers: %w", err)
	}
	var errs []error
	for _, rid := range resellers {
		if end.After(from) {
			if err := s.settleReseller(ctx, rid, from, end, &res); err != nil {
				errs = append(errs, fmt.Errorf("reseller %d: %w", rid, err))
			}
		}
		if err := s.takeReversals(ctx, rid, &res); err != nil {
			errs = append(errs, fmt.Errorf("reseller %d: %w", rid, err))
		}
	}
	return res, errors.Join(errs...)
}

func (s *Settler) settleReseller(ctx context.Context, rid uint64, from, end time.Time, res *Result) error {
	f := settlement.Filter{ResellerID: &rid, To: &end}
	if !from.IsZero() {
		f.From = &from
	}
	done, err := s.reads.List(ctx, f)
	if err != nil {
		return fmt.Errorf("list settlements: %w", err)
	}
	settled := make(map[int64]bool, len(done))
	for _, d := range done {
		settled[d.HourStart.Unix()] = true
	}
	at := from
	for {
		next, err := s.reads.NextHitAt(ctx, rid, at, end)
		if err != nil {
			return fmt.Errorf("find hits: %w", err)
		}
		if next == nil {
			return nil
		}
		hour := settlement.HourStart(*next)
		hourEnd := hour.Add(time.Hour)
		at = hourEnd
		if settled[hour.Unix()] {
			continue
		}
		a, err := s.reads.Accrued(ctx, rid, hour, hourEnd)
		if err != nil {
			return fmt.Errorf("sum hour %s: %w", hour.Format(time.RFC3339), err)
		}
		if a.Pending > 0 {
			res.Waiting++
			continue
		}
		if !a.Amount.IsPositive() {
			continue // zero-amount hours write nothing
		}
		st, err := s.credit(ctx, rid, hour)
		switch {
		case errors.Is(err, settlement.ErrAlreadySettled), errors.Is(err, errNothing):
			continue // another settler won: it counted the hour
		case err != nil:
			return fmt.Errorf("settle hour %s: %w", hour.Format(time.RFC3339), err)
		}
		res.Settled++
		res.Credits = append(res.Credits, *st)
	}
}

// errNothing rolls back a settlement whose hits, claimed in its
// transaction, earned nothing (a refund or another settlement got them
// first): zero-amount hours write nothing.
var errNothing = errors.New("nothing to settle")

// credit writes one reseller-hour's settlement and its ledger credit in
// one transaction: the reseller's row locked first (settlers of one
// reseller queue there; taking the settlement's unique key first let
// three racing inserts of one hour deadlock on MariaDB), then the
// settlement row (its unique key decides a race: the loser rolls back and
// counts nothing), its hits claimed and summed (a refund racing it either
// cancelled first, and the hit is not claimed, or waits for the claim and
// books a reversal), the credit and the balance saved.
func (s *Settler) credit(ctx context.Context, rid uint64, hour time.Time) (*settlement.Settlement, error) {
	var out settlement.Settlement
	err := s.tx.WithinTx(ctx, func(ctx context.Context, st TxStores) error {
		now := s.now()
		u, err := st.Users.LockByID(ctx, rid)
		if err != nil {
			return fmt.Errorf("lock reseller: %w", err)
		}
		set := &settlement.Settlement{ResellerID: rid, HourStart: hour, Amount: decimal.Zero, Reversed: decimal.Zero,
			ReversalTaken: decimal.Zero, CreatedAt: now.UTC()}
		if err := st.Commissions.Insert(ctx, set); err != nil {
			return err
		}
		a, err := st.Commissions.Claim(ctx, set.ID, rid, hour, hour.Add(time.Hour))
		if err != nil {
			return err
		}
		set.Hits, set.Amount = a.Hits, a.Amount.Round(2)
		if !set.Amount.IsPositive() {
			return errNothing
		}
		ref := set.ID
		desc := "Commission for " + hour.In(s.cfg.Location).Format("2006-01-02 15:04") + " (" + fmt.Sprint(a.Hits) + " calls)"
		e, err := store.Post(ctx, st.Books, now, s.cfg.Livemode, u, ledger.Credit, set.Amount, settlement.RefCommission, &ref, desc)
		if err != nil {
			return err
		}
		if err := st.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save reseller's balance: %w", err)
		}
		set.TransactionID = &e.ID
		if err := st.Commissions.SetCredit(ctx, set); err != nil {
			return err
		}
		out = *set
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// takeReversals debits back, in one transaction under the reseller's row
// lock, what its settlements owe for refunded hits: per settlement one
// debit of as much of its Due as the reseller's available balance covers
// (settlement.Take); what it cannot cover stays due, shown on the settlement,
// and is taken by a later run.
func (s *Settler) takeReversals(ctx context.Context, rid uint64, res *Result) error {
	var taken decimal.Decimal
	err := s.tx.WithinTx(ctx, func(ctx context.Context, st TxStores) error {
		taken = decimal.Zero
		u, err := st.Users.LockByID(ctx, rid)
		if err != nil {
			return fmt.Errorf("lock reseller: %w", err)
		}
		owed, err := st.Commissions.Owed(ctx, rid)
		if err != nil || len(owed) == 0 {
			return err
		}
		now := s.now()
		for _, o := range owed {
			amt := settlement.Take(o.Due(), u.Available())
			if !amt.IsPositive() {
				break
			}
			ref := o.ID
			desc := "Commission reversal for " + o.HourStart.In(s.cfg.Location).Format("2006-01-02 15:04") + " (refunded calls)"
			if _, err := store.Post(ctx, st.Books, now, s.cfg.Livemode, u, ledger.Debit, amt, settlement.RefCommission, &ref, desc); err != nil {
				return err
			}
			if err := st.Commissions.TakeReversal(ctx, o.ID, amt); err != nil {
				return err
			}
			taken = taken.Add(amt)
		}
		if !taken.IsPositive() {
			return nil
		}
		if err := st.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save reseller's balance: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("take reversals: %w", err)
	}
	res.Reversed = res.Reversed.Add(taken)
	return nil
}
