package history

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/export"
)

// scopeTo is the user a history query may read: the caller's own rows for
// everyone but an admin, whatever user id the request named; an admin's
// choice (nil: everyone) for an admin.
func scopeTo(actor *user.User, asked *uint64) *uint64 {
	if actor.Role == user.RoleAdmin {
		return asked
	}
	id := actor.ID
	return &id
}

// ListTransactions lists ledger entries: a user's own; an admin's any user's
// (all when f.UserID is nil). Like the hit log, it first lets this
// instance's metered calls' charges be written.
func (p *History) ListTransactions(ctx context.Context, actor *user.User, f ledger.Filter) ([]ledger.Entry, int64, error) {
	if err := p.settled(ctx); err != nil {
		return nil, 0, err
	}
	f.UserID = scopeTo(actor, f.UserID)
	return p.st.Ledger.List(ctx, f)
}

// ExportTransactions visits every entry ListTransactions would list, on
// every page, one at a time (the CSV export).
func (p *History) ExportTransactions(ctx context.Context, actor *user.User, f ledger.Filter, fn func(ledger.Entry) error) error {
	if err := p.settled(ctx); err != nil {
		return err
	}
	f.UserID = scopeTo(actor, f.UserID)
	return p.Exporting(ctx, actor, func(ctx context.Context) error {
		return p.st.Ledger.ForEach(ctx, f, fn)
	})
}

// ListHits lists hit log rows with the same scoping as ListTransactions.
func (p *History) ListHits(ctx context.Context, actor *user.User, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	if err := p.settled(ctx); err != nil {
		return nil, 0, err
	}
	f.UserID = scopeTo(actor, f.UserID)
	hits, total, err := p.st.Hits.List(ctx, f)
	cutoff := p.payloadCutoff()
	for i := range hits {
		hits[i] = hits[i].WithoutPayloadsBefore(cutoff)
	}
	return hits, total, err
}

// payloadCutoff is the creation time before which a hit's payloads are past
// the retention (zero: none is).
func (p *History) payloadCutoff() time.Time {
	if p.cfg.PayloadRetention <= 0 {
		return time.Time{}
	}
	return p.now().Add(-p.cfg.PayloadRetention)
}

// ExportHits visits every hit ListHits would list, one at a time, with
// payloads cut to hitlog.ExportPayloadChars.
func (p *History) ExportHits(ctx context.Context, actor *user.User, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	if err := p.settled(ctx); err != nil {
		return err
	}
	f.UserID = scopeTo(actor, f.UserID)
	cutoff := p.payloadCutoff()
	return p.Exporting(ctx, actor, func(ctx context.Context) error {
		return p.st.Hits.ForEach(ctx, f, func(h hitlog.Hit) error {
			return fn(h.WithoutPayloadsBefore(cutoff))
		})
	})
}

// Exporting runs an export under one of the actor's export.MaxPerUser
// slots, or refuses it with export.ErrBusy when all are taken (by exports
// on any instance). While run runs, its lease is renewed every sixth of
// the lease (export.RenewEvery by default), rows flowing or not: a writer
// blocked on a slow client keeps its slot for as long as the HTTP edge lets
// it wait (EXPORT_STALL_TIMEOUT), however long that is. A lease found taken
// over (it lapsed while the database was out of reach) cancels run's
// context, so the cap holds. The slot is freed when run returns. With no
// lease store (unit tests of other rules) exports are not limited.
func (p *History) Exporting(ctx context.Context, actor *user.User, run func(ctx context.Context) error) error {
	leases := p.st.Exports
	if leases == nil {
		return run(ctx)
	}
	ttl := p.cfg.ExportLease
	now := p.now()
	l := export.Lease{UserID: actor.ID, Holder: rand.Text()}
	for ; l.Slot < export.MaxPerUser; l.Slot++ {
		took, err := leases.Claim(ctx, l, now, now.Add(ttl))
		if err != nil {
			return fmt.Errorf("claim an export slot: %w", err)
		}
		if took {
			break
		}
	}
	if l.Slot == export.MaxPerUser {
		return export.ErrBusy
	}
	defer func() {
		// The request's context may be over (the client left): free the
		// slot regardless, briefly.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := leases.Release(rctx, l); err != nil {
			p.log.Warn("export slot not released; it frees itself when its lease lapses", "user_id", l.UserID, "slot", l.Slot, "err", err)
		}
	}()
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	defer func() {
		cancel()
		<-done
	}()
	go func() {
		defer close(done)
		p.renewLease(rctx, cancel, leases, l, ttl)
	}()
	return run(rctx)
}

// renewLease renews l every ttl/6 until ctx ends; when l's holder no longer
// holds the slot it calls stop and returns. A failed renewal is retried at
// the next tick (the lease still has five sixths of its time).
func (p *History) renewLease(ctx context.Context, stop func(), leases export.Repository, l export.Lease, ttl time.Duration) {
	tick := time.NewTicker(ttl / 6)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		held, err := leases.Renew(ctx, l, p.now().Add(ttl))
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			p.log.Warn("export slot lease not renewed", "user_id", l.UserID, "slot", l.Slot, "err", err)
			continue
		}
		if !held {
			p.log.Error("export slot taken over after its lease lapsed; export ended", "user_id", l.UserID, "slot", l.Slot)
			stop()
			return
		}
	}
}

// ServiceRef resolves the hit log filter "service": a number is a service id
// taken as is (the logs of a deleted service keep its id); anything else is
// the slug of an existing service, else a 422 on field.
func (p *History) ServiceRef(ctx context.Context, field, ref string) (uint64, error) {
	if id, err := strconv.ParseUint(ref, 10, 64); err == nil {
		return id, nil
	}
	svc, err := p.st.Services.BySlug(ctx, ref)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return 0, errs.Validation(map[string][]string{field: {"must be a service id or the slug of an existing service"}})
		}
		return 0, fmt.Errorf("find service %q: %w", ref, err)
	}
	return svc.ID, nil
}

// Location is the time zone of day and month boundaries.
func (p *History) Location() *time.Location { return p.cfg.Location }

// Now is the use cases' clock (file names of exports).
func (p *History) Now() time.Time { return p.now() }
