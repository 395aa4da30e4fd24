package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/events/webhook"
	"paygate/core/platform/errs"
)

// webhooksRepo is the outbox: a delivery is claimable while pending, due,
// and not leased; a claim's token alone may settle or release it.
type webhooksRepo struct{ d *DB }

var _ webhook.Repository = webhooksRepo{}

func (r webhooksRepo) Insert(_ context.Context, e *webhook.Event, ds []*webhook.Delivery) error {
	return r.d.do("Webhooks.Insert", func(t *tables) error {
		e.ID = t.id("events", 0)
		t.events[e.ID] = *e
		for _, dl := range ds {
			dl.ID, dl.EventID, dl.EventPublicID = t.id("deliveries", 0), e.ID, e.PublicID
			t.deliveries[dl.ID] = *dl
		}
		return nil
	})
}

func due(dl webhook.Delivery, now time.Time, lane webhook.Lane) bool {
	ok := dl.Status == webhook.StatusPending && !dl.NextAttemptAt.After(now) && (dl.ClaimedUntil == nil || !dl.ClaimedUntil.After(now))
	if !lane.FirstSince.IsZero() {
		ok = ok && !dl.NextAttemptAt.Before(lane.FirstSince) && dl.Failures == 0
	}
	return ok
}

func dueOrder(t *tables) []webhook.Delivery {
	all := sorted(t.deliveries)
	slices.SortStableFunc(all, func(a, b webhook.Delivery) int { return a.NextAttemptAt.Compare(b.NextAttemptAt) })
	return all
}

func (r webhooksRepo) HasDue(_ context.Context, now time.Time, lane webhook.Lane) (bool, error) {
	var any bool
	err := r.d.do("Webhooks.HasDue", func(t *tables) error {
		for _, dl := range t.deliveries {
			any = any || due(dl, now, lane)
		}
		return nil
	})
	return any, err
}

func (r webhooksRepo) Claim(_ context.Context, now, until time.Time, token string, limit int, lane webhook.Lane) ([]webhook.Job, error) {
	var jobs []webhook.Job
	err := r.d.do("Webhooks.Claim", func(t *tables) error {
		for _, dl := range dueOrder(t) {
			if len(jobs) == limit || !due(dl, now, lane) {
				continue
			}
			u := until
			dl.ClaimedUntil = &u
			t.deliveries[dl.ID], t.claims[dl.ID] = dl, token
			jobs = append(jobs, webhook.Job{Delivery: dl, Event: t.events[dl.EventID], Token: token})
		}
		return nil
	})
	return jobs, err
}

func (r webhooksRepo) Release(_ context.Context, ids []uint64, token string) error {
	return r.d.do("Webhooks.Release", func(t *tables) error {
		for _, id := range ids {
			if dl, ok := t.deliveries[id]; ok && t.claims[id] == token {
				dl.ClaimedUntil = nil
				t.deliveries[id] = dl
				delete(t.claims, id)
			}
		}
		return nil
	})
}

func (r webhooksRepo) Settle(_ context.Context, dl *webhook.Delivery, token string) (bool, error) {
	var won bool
	err := r.d.do("Webhooks.Settle", func(t *tables) error {
		row, ok := t.deliveries[dl.ID]
		if !ok || t.claims[dl.ID] != token {
			return nil
		}
		row.URL, row.Status, row.Attempts, row.Failures, row.NextAttemptAt = dl.URL, dl.Status, dl.Attempts, dl.Failures, dl.NextAttemptAt
		row.ClaimedUntil, row.LastStatusCode, row.LastError, row.DeliveredAt, row.UpdatedAt = nil, dl.LastStatusCode, dl.LastError, dl.DeliveredAt, dl.UpdatedAt
		t.deliveries[dl.ID], won = row, true
		delete(t.claims, dl.ID)
		return nil
	})
	return won, err
}

func (r webhooksRepo) AddAttempt(_ context.Context, a *webhook.Attempt) error {
	return r.d.do("Webhooks.AddAttempt", func(t *tables) error {
		a.ID = t.id("attempts", 0)
		t.attempts = append(t.attempts, *a)
		return nil
	})
}

func (r webhooksRepo) Redeliver(_ context.Context, dl *webhook.Delivery) error {
	return r.d.do("Webhooks.Redeliver", func(t *tables) error {
		row, ok := t.deliveries[dl.ID]
		if !ok {
			return nil
		}
		row.Status, row.Failures, row.NextAttemptAt, row.UpdatedAt = dl.Status, dl.Failures, dl.NextAttemptAt, dl.UpdatedAt
		t.deliveries[dl.ID] = row
		delete(t.claims, dl.ID) // the lease stays; the right to settle goes
		return nil
	})
}

func (r webhooksRepo) ByID(_ context.Context, id uint64) (*webhook.Delivery, error) {
	var out *webhook.Delivery
	err := r.d.do("Webhooks.ByID", func(t *tables) error {
		dl, ok := t.deliveries[id]
		if !ok {
			return webhook.ErrNotFound
		}
		out = &dl
		return nil
	})
	return out, err
}

func (r webhooksRepo) Event(_ context.Context, id uint64) (*webhook.Event, error) {
	var out *webhook.Event
	err := r.d.do("Webhooks.Event", func(t *tables) error {
		e, ok := t.events[id]
		if !ok {
			return errs.ErrNotFound
		}
		out = &e
		return nil
	})
	return out, err
}

func (r webhooksRepo) Attempts(_ context.Context, deliveryID uint64, limit int) ([]webhook.Attempt, error) {
	var out []webhook.Attempt
	err := r.d.do("Webhooks.Attempts", func(t *tables) error {
		for i := len(t.attempts) - 1; i >= 0 && len(out) < limit; i-- {
			if t.attempts[i].DeliveryID == deliveryID {
				out = append(out, t.attempts[i])
			}
		}
		return nil
	})
	return out, err
}

// redelivery is one manual redelivery of a delivery (the hourly limit's count).
type redelivery struct {
	deliveryID, by uint64
	at             time.Time
}

func (r webhooksRepo) Redeliveries(_ context.Context, id uint64, since time.Time) (int, time.Time, error) {
	n, oldest := 0, time.Time{}
	err := r.d.do("Webhooks.Redeliveries", func(t *tables) error {
		for _, x := range t.redeliveries {
			if x.deliveryID == id && !x.at.Before(since) {
				if n == 0 || x.at.Before(oldest) {
					oldest = x.at
				}
				n++
			}
		}
		return nil
	})
	return n, oldest, err
}

func (r webhooksRepo) RecordRedelivery(_ context.Context, id, requestedBy uint64, at time.Time) error {
	return r.d.do("Webhooks.RecordRedelivery", func(t *tables) error {
		t.redeliveries = append(t.redeliveries, redelivery{deliveryID: id, by: requestedBy, at: at})
		return nil
	})
}

func (r webhooksRepo) List(_ context.Context, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	return listDeliveries(r.d, f)
}

func (r webhooksRepo) Backlog(context.Context) (int64, error) {
	var n int64
	err := r.d.do("Webhooks.Backlog", func(t *tables) error {
		for _, dl := range t.deliveries {
			if dl.Status == webhook.StatusPending {
				n++
			}
		}
		return nil
	})
	return n, err
}

func listDeliveries(d *DB, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	var out []webhook.Delivery
	var total int64
	err := d.do("Webhooks.List", func(t *tables) error {
		var all []webhook.Delivery
		for _, dl := range newestFirst(sorted(t.deliveries)) {
			if (f.UserID == nil || dl.UserID == *f.UserID) && (f.Status == "" || dl.Status == f.Status) &&
				(f.EventType == "" || dl.EventType == f.EventType) && within(dl.CreatedAt, f.From, f.To) {
				dl.EventPublicID = t.events[dl.EventID].PublicID
				all = append(all, dl)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

// ClaimToken is the token of the claim on delivery id ("" when none).
func (d *DB) ClaimToken(id uint64) string {
	return read(d, func(t *tables) string { return t.claims[id] })
}
