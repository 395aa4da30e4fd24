package metering

import (
	"context"
	"errors"
	"fmt"
	"time"

	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// ErrInterrupted is what a hit whose call never finished records (its
// instance crashed, or lost the database before settling): the reserved
// charge is refunded.
var ErrInterrupted = errs.E(errs.Unavailable, "interrupted", "Call interrupted before it finished; the charge was refunded")

// DefaultRecoveryMargin is added to the upstream timeout for the default
// PendingHitGrace: the longest a call's own database work may take besides
// its upstream call.
const DefaultRecoveryMargin = time.Minute

// RecoverPendingHits releases up to limit holds left open by a dead
// instance (RecoverHolds), then settles up to limit hits left pending longer than the
// longest possible call (Config.PendingHitGrace): their calls never
// finished, so nobody will settle them. Each is marked failed with
// ErrInterrupted and its reserved charge (the hit's own fee, never a
// recharge's amount, which has its own recovery) refunded, in one
// transaction under the owner's row lock. Finish is conditional on
// pending, so with several instances recovering at once, or a call
// settling late, each hit is settled exactly once. It returns how many
// hits this call settled.
func (a *Metering) RecoverPendingHits(ctx context.Context, limit int) (int, error) {
	released, err := a.RecoverHolds(ctx, limit)
	if err != nil {
		return released, err
	}
	settled, err := a.recoverPendingHits(ctx, limit)
	return released + settled, err
}

// recoverPendingHits is RecoverPendingHits' part on pending hits.
func (a *Metering) recoverPendingHits(ctx context.Context, limit int) (int, error) {
	cutoff := a.now().Add(-a.cfg.PendingHitGrace).UTC()
	hits, err := a.reads.Hits.Pending(ctx, cutoff, limit)
	if err != nil {
		return 0, fmt.Errorf("list pending hits: %w", err)
	}
	n := 0
	var failed []error
	for i := range hits {
		done, err := a.recoverHit(ctx, &hits[i])
		if err != nil {
			if ctx.Err() != nil {
				return n, err
			}
			failed = append(failed, err) // the next hit may still go through
			continue
		}
		if done {
			n++
		}
	}
	return n, errors.Join(failed...)
}

// recoverHit refunds one interrupted hit through the writer (Refund);
// false when another settlement got there first.
func (a *Metering) recoverHit(ctx context.Context, h *hitlog.Hit) (bool, error) {
	failHit(h, ErrInterrupted)
	err := a.w.Refund(&batchOp{hit: h, month: a.month(h.CreatedAt), note: "Refund of interrupted API call "})
	if errors.Is(err, ErrHitNotPending) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("recover hit %s: %w", h.RequestID, err)
	}
	a.log.Info("interrupted call refunded", "request_id", h.RequestID, "user_id", h.UserID, "refunded", h.Reserved.StringFixed(2))
	return true, nil
}
