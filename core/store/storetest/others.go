package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/audit"
	"paygate/core/directory"
	"paygate/core/errs"
	"paygate/core/payment"
	"paygate/core/recharge"
	"paygate/core/report"
	"paygate/core/session"
	"paygate/core/topup"
	"paygate/core/user"
	"paygate/core/utr"
	"paygate/core/verification"
	"paygate/core/webhook"
)

// paymentsRepo: Transition moves a payment only from the state it names.
type paymentsRepo struct{ d *DB }

var _ payment.Repository = paymentsRepo{}

func (r paymentsRepo) Create(_ context.Context, p *payment.Payment) error {
	return r.d.do("Payments.Create", func(t *tables) error {
		p.ID = t.id("payments", 0)
		t.payments[p.ID] = *p
		return nil
	})
}

func (r paymentsRepo) get(method string, match func(payment.Payment) bool) (*payment.Payment, error) {
	var out *payment.Payment
	err := r.d.do(method, func(t *tables) error {
		for _, p := range sorted(t.payments) {
			if match(p) {
				out = &p
				return nil
			}
		}
		return payment.ErrNotFound
	})
	return out, err
}

func (r paymentsRepo) ByPublicID(_ context.Context, publicID string) (*payment.Payment, error) {
	return r.get("Payments.ByPublicID", func(p payment.Payment) bool { return p.PublicID == publicID })
}

func (r paymentsRepo) ByID(_ context.Context, id uint64) (*payment.Payment, error) {
	return r.get("Payments.ByID", func(p payment.Payment) bool { return p.ID == id })
}

func (r paymentsRepo) Transition(_ context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	var moved bool
	err := r.d.do("Payments.Transition", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from {
			return nil
		}
		row.Status, row.ProviderRef, row.CompletedAt, row.UpdatedAt, row.Fee = p.Status, p.ProviderRef, p.CompletedAt, p.UpdatedAt, p.Fee
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) SubmitUTR(_ context.Context, p *payment.Payment, from payment.Status, prev *string) (bool, error) {
	var moved bool
	err := r.d.do("Payments.SubmitUTR", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from || (row.UTR == nil) != (prev == nil) || (prev != nil && *row.UTR != *prev) {
			return nil
		}
		for id, o := range t.payments {
			if id != p.ID && o.UTR != nil && p.UTR != nil && *o.UTR == *p.UTR {
				return payment.ErrUTRTaken
			}
		}
		row.Status, row.UTR, row.ExpiresAt, row.UpdatedAt = p.Status, p.UTR, p.ExpiresAt, p.UpdatedAt
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) HoldCredit(_ context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	var moved bool
	err := r.d.do("Payments.HoldCredit", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from {
			return nil
		}
		row.Status, row.CreditHeldAt, row.UpdatedAt = p.Status, p.CreditHeldAt, p.UpdatedAt
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) Expirable(_ context.Context, now time.Time, limit int) ([]payment.Payment, error) {
	var out []payment.Payment
	err := r.d.do("Payments.Expirable", func(t *tables) error {
		all := sorted(t.payments)
		slices.SortStableFunc(all, func(a, b payment.Payment) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
		for _, p := range all {
			open := p.Status == payment.StatusCreated || p.Status == payment.StatusPending
			if open && p.CreditHeldAt == nil && !p.ExpiresAt.After(now) && len(out) < limit {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

func (r paymentsRepo) List(context.Context, payment.Filter) ([]payment.Payment, int64, error) {
	notImplemented("Payments.List")
	return nil, 0, nil
}

func (r paymentsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(payment.Payment) error) error {
	var list []payment.Payment
	if err := r.d.do("Payments.ForEachByUser", func(t *tables) error {
		for _, p := range sorted(t.payments) {
			if p.UserID == userID {
				list = append(list, p)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, p := range list {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// idempotencyRepo: one live row per (user, key); an expired one gives way
// to a new claim.
type idempotencyRepo struct{ d *DB }

var _ payment.IdempotencyKeys = idempotencyRepo{}

func (r idempotencyRepo) Claim(_ context.Context, k *payment.IdempotencyKey, now time.Time) error {
	return r.d.do("Idempotency.Claim", func(t *tables) error {
		for i, o := range t.idempotency {
			if o.UserID == k.UserID && o.Key == k.Key {
				if o.ExpiresAt.After(now) {
					return errs.ErrConflict
				}
				t.idempotency = slices.Delete(t.idempotency, i, i+1)
				break
			}
		}
		t.idempotency = append(t.idempotency, *k)
		return nil
	})
}

func (r idempotencyRepo) Find(_ context.Context, userID uint64, key string, now time.Time) (*payment.IdempotencyKey, error) {
	var out *payment.IdempotencyKey
	err := r.d.do("Idempotency.Find", func(t *tables) error {
		for _, o := range t.idempotency {
			if o.UserID == userID && o.Key == key && o.ExpiresAt.After(now) {
				out = &o
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}

// rechargesRepo: Finish, MarkSubmitted and Claim are conditional updates
// that report whether they wrote.
type rechargesRepo struct{ d *DB }

var _ recharge.Repository = rechargesRepo{}

func (r rechargesRepo) Create(_ context.Context, rc *recharge.Recharge) error {
	return r.d.do("Recharges.Create", func(t *tables) error {
		for _, o := range t.recharges {
			if o.UserID == rc.UserID && o.ReferenceID == rc.ReferenceID {
				return recharge.ErrReferenceReused.Wrap(errs.ErrConflict)
			}
		}
		rc.ID = t.id("recharges", 0)
		t.recharges[rc.ID] = *rc
		return nil
	})
}

func (r rechargesRepo) get(method string, match func(recharge.Recharge) bool) (*recharge.Recharge, error) {
	var out *recharge.Recharge
	err := r.d.do(method, func(t *tables) error {
		for _, rc := range sorted(t.recharges) {
			if match(rc) {
				out = &rc
				return nil
			}
		}
		return recharge.ErrNotFound
	})
	return out, err
}

func (r rechargesRepo) ByReference(_ context.Context, userID uint64, referenceID string) (*recharge.Recharge, error) {
	return r.get("Recharges.ByReference", func(rc recharge.Recharge) bool {
		return rc.UserID == userID && rc.ReferenceID == referenceID
	})
}

func (r rechargesRepo) ByID(_ context.Context, id uint64) (*recharge.Recharge, error) {
	return r.get("Recharges.ByID", func(rc recharge.Recharge) bool { return rc.ID == id })
}

func (r rechargesRepo) Finish(_ context.Context, rc *recharge.Recharge) (bool, error) {
	var moved bool
	err := r.d.do("Recharges.Finish", func(t *tables) error {
		row, ok := t.recharges[rc.ID]
		if !ok || row.Status != recharge.StatusPending {
			return nil
		}
		row.Status, row.OperatorRef, row.FailReason, row.UpdatedAt = rc.Status, rc.OperatorRef, rc.FailReason, rc.UpdatedAt
		if row.SubmittedAt == nil {
			at := rc.UpdatedAt
			if rc.SubmittedAt != nil {
				at = *rc.SubmittedAt
			}
			row.SubmittedAt = &at
		}
		t.recharges[rc.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r rechargesRepo) MarkSubmitted(_ context.Context, rc *recharge.Recharge) (bool, error) {
	if rc.SubmittedAt == nil {
		return false, errs.E(errs.Internal, "no_submission_time", "mark submitted: no submission time")
	}
	var moved bool
	err := r.d.do("Recharges.MarkSubmitted", func(t *tables) error {
		row, ok := t.recharges[rc.ID]
		if !ok || row.Status != recharge.StatusPending || row.SubmittedAt != nil {
			return nil
		}
		at := *rc.SubmittedAt
		row.SubmittedAt, row.NextCheckAt, row.UpdatedAt = &at, rc.NextCheckAt, rc.UpdatedAt
		t.recharges[rc.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r rechargesRepo) Due(_ context.Context, now time.Time, limit int) ([]recharge.Recharge, error) {
	var out []recharge.Recharge
	err := r.d.do("Recharges.Due", func(t *tables) error {
		all := sorted(t.recharges)
		slices.SortStableFunc(all, func(a, b recharge.Recharge) int { return a.NextCheckAt.Compare(b.NextCheckAt) })
		for _, rc := range all {
			if rc.Status == recharge.StatusPending && !rc.NextCheckAt.After(now) && len(out) < limit {
				out = append(out, rc)
			}
		}
		return nil
	})
	return out, err
}

func (r rechargesRepo) Claim(_ context.Context, old, next *recharge.Recharge, now time.Time) (bool, error) {
	var won bool
	err := r.d.do("Recharges.Claim", func(t *tables) error {
		row, ok := t.recharges[old.ID]
		if !ok || row.Status != recharge.StatusPending || row.Attempts != old.Attempts || row.NextCheckAt.After(now) ||
			(row.SubmittedAt == nil) != (old.SubmittedAt == nil) {
			return nil
		}
		row.Attempts, row.NextCheckAt, row.ReconcileAt, row.UpdatedAt = next.Attempts, next.NextCheckAt, next.ReconcileAt, next.UpdatedAt
		t.recharges[old.ID], won = row, true
		return nil
	})
	return won, err
}

func (r rechargesRepo) List(context.Context, recharge.Filter) ([]recharge.Recharge, int64, error) {
	notImplemented("Recharges.List")
	return nil, 0, nil
}

func (r rechargesRepo) ForEachByUser(_ context.Context, userID uint64, fn func(recharge.Recharge) error) error {
	var rows []recharge.Recharge
	if err := r.d.do("Recharges.ForEachByUser", func(t *tables) error {
		for _, rc := range sorted(t.recharges) {
			if rc.UserID == userID {
				rows = append(rows, rc)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, rc := range rows {
		if err := fn(rc); err != nil {
			return err
		}
	}
	return nil
}

// verificationsRepo: an append-only table.
type verificationsRepo struct{ d *DB }

var _ verification.Repository = verificationsRepo{}

func (r verificationsRepo) Create(_ context.Context, v *verification.Record) error {
	return r.d.do("Verifications.Create", func(t *tables) error {
		v.ID = t.id("verifications", 0)
		t.verifications = append(t.verifications, *v)
		return nil
	})
}

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

// topupsRepo: Decide writes only a pending request; a UTR is unique.
type topupsRepo struct{ d *DB }

var _ topup.Repository = topupsRepo{}

func (r topupsRepo) Create(_ context.Context, q *topup.Request) error {
	return r.d.do("TopUps.Create", func(t *tables) error {
		for _, o := range t.topups {
			if o.UTRNumber == q.UTRNumber {
				return topup.ErrUTRTaken
			}
		}
		q.ID = t.id("topups", 0)
		t.topups[q.ID] = *q
		return nil
	})
}

func (r topupsRepo) ByID(_ context.Context, id uint64) (*topup.Request, error) {
	var out *topup.Request
	err := r.d.do("TopUps.ByID", func(t *tables) error {
		q, ok := t.topups[id]
		if !ok {
			return topup.ErrNotFound
		}
		out = &q
		return nil
	})
	return out, err
}

func (r topupsRepo) Decide(_ context.Context, q *topup.Request) error {
	return r.d.do("TopUps.Decide", func(t *tables) error {
		row, ok := t.topups[q.ID]
		if !ok {
			return topup.ErrNotFound
		}
		if row.Status != topup.StatusPending {
			return topup.ErrAlreadyDecided
		}
		row.Status, row.ApprovedBy, row.ApprovedAt, row.AdminRemarks, row.UpdatedAt = q.Status, q.ApprovedBy, q.ApprovedAt, q.AdminRemarks, q.UpdatedAt
		t.topups[q.ID] = row
		return nil
	})
}

func (r topupsRepo) List(_ context.Context, f topup.Filter) ([]topup.Request, int64, error) {
	return listTopUps(r.d, f)
}

// sessionsRepo: Rotate and Delete report whether this call did it.
type sessionsRepo struct{ d *DB }

var _ session.Repository = sessionsRepo{}

func (r sessionsRepo) Create(_ context.Context, tk *session.Token) error {
	return r.d.do("Sessions.Create", func(t *tables) error {
		tk.ID = t.id("sessions", 0)
		t.sessions[tk.ID] = *tk
		return nil
	})
}

func (r sessionsRepo) get(method string, match func(session.Token) bool) (*session.Token, error) {
	var out *session.Token
	err := r.d.do(method, func(t *tables) error {
		for _, tk := range sorted(t.sessions) {
			if match(tk) {
				out = &tk
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}

func (r sessionsRepo) ByHash(_ context.Context, hash string) (*session.Token, error) {
	return r.get("Sessions.ByHash", func(tk session.Token) bool { return tk.TokenHash == hash })
}

func (r sessionsRepo) ByID(_ context.Context, id uint64) (*session.Token, error) {
	return r.get("Sessions.ByID", func(tk session.Token) bool { return tk.ID == id })
}

func (r sessionsRepo) ByPreviousHash(_ context.Context, hash string) (*session.Token, error) {
	return r.get("Sessions.ByPreviousHash", func(tk session.Token) bool { return hash != "" && tk.PreviousHash == hash })
}

func (r sessionsRepo) Rotate(_ context.Context, id uint64, oldHash, newHash string, now, expiresAt time.Time) (bool, error) {
	var won bool
	err := r.d.do("Sessions.Rotate", func(t *tables) error {
		tk, ok := t.sessions[id]
		if !ok || tk.TokenHash != oldHash {
			return nil
		}
		tk.TokenHash, tk.PreviousHash, tk.LastUsedAt, tk.ExpiresAt = newHash, oldHash, &now, expiresAt
		t.sessions[id], won = tk, true
		return nil
	})
	return won, err
}

func (r sessionsRepo) Delete(_ context.Context, id uint64) (bool, error) {
	var found bool
	err := r.d.do("Sessions.Delete", func(t *tables) error {
		_, found = t.sessions[id]
		delete(t.sessions, id)
		return nil
	})
	return found, err
}

func (r sessionsRepo) deleteWhere(method string, match func(session.Token) bool) error {
	return r.d.do(method, func(t *tables) error {
		for id, tk := range t.sessions {
			if match(tk) {
				delete(t.sessions, id)
			}
		}
		return nil
	})
}

func (r sessionsRepo) DeleteByUser(_ context.Context, userID uint64) error {
	return r.deleteWhere("Sessions.DeleteByUser", func(tk session.Token) bool { return tk.UserID == userID })
}

func (r sessionsRepo) DeleteOthers(_ context.Context, userID, keepID uint64) error {
	return r.deleteWhere("Sessions.DeleteOthers", func(tk session.Token) bool { return tk.UserID == userID && tk.ID != keepID })
}

func (r sessionsRepo) ListByUser(_ context.Context, userID uint64) ([]session.Token, error) {
	var out []session.Token
	err := r.d.do("Sessions.ListByUser", func(t *tables) error {
		for _, tk := range sorted(t.sessions) {
			if tk.UserID == userID {
				out = append(out, tk)
			}
		}
		return nil
	})
	return out, err
}

func (r sessionsRepo) Prune(_ context.Context, userID uint64, now time.Time, keep int) error {
	return r.d.do("Sessions.Prune", func(t *tables) error {
		var live []session.Token
		for id, tk := range t.sessions {
			switch {
			case tk.UserID != userID:
			case tk.ExpiresAt.Before(now):
				delete(t.sessions, id)
			default:
				live = append(live, tk)
			}
		}
		slices.SortFunc(live, func(a, b session.Token) int { return b.CreatedAt.Compare(a.CreatedAt) })
		for _, tk := range live[min(keep, len(live)):] {
			delete(t.sessions, tk.ID)
		}
		return nil
	})
}

// settingsRepo: the first stored value of a key wins.
type settingsRepo struct{ d *DB }

var _ session.Settings = settingsRepo{}

func (r settingsRepo) GetOrCreate(_ context.Context, key, value string) (string, error) {
	var out string
	err := r.d.do("Settings.GetOrCreate", func(t *tables) error {
		if v, ok := t.settings[key]; ok {
			out = v
			return nil
		}
		t.settings[key], out = value, value
		return nil
	})
	return out, err
}

// auditRepo: an append-only table.
type auditRepo struct{ d *DB }

var _ audit.Repository = auditRepo{}

func (r auditRepo) Add(_ context.Context, e *audit.Entry) error {
	return r.d.do("Audit.Add", func(t *tables) error {
		e.ID = t.id("audit", 0)
		t.audit = append(t.audit, *e)
		return nil
	})
}

func (r auditRepo) List(_ context.Context, f audit.Filter) ([]audit.Entry, int64, error) {
	return listAudit(r.d, f)
}

// resetsRepo: one token per email; Take deletes it at most once.
type resetsRepo struct{ d *DB }

var _ user.ResetRepository = resetsRepo{}

func (r resetsRepo) Put(_ context.Context, tk user.ResetToken) error {
	return r.d.do("Resets.Put", func(t *tables) error {
		t.resets[tk.Email] = tk
		return nil
	})
}

func (r resetsRepo) Take(_ context.Context, email, tokenHash string, notBefore time.Time) (bool, error) {
	var took bool
	err := r.d.do("Resets.Take", func(t *tables) error {
		tk, ok := t.resets[email]
		if ok && tk.TokenHash == tokenHash && tk.CreatedAt.After(notBefore) {
			delete(t.resets, email)
			took = true
		}
		return nil
	})
	return took, err
}

func (r resetsRepo) Delete(_ context.Context, email string) error {
	return r.d.do("Resets.Delete", func(t *tables) error {
		delete(t.resets, email)
		return nil
	})
}

// reportsRepo: the dashboard's read model (lists.go).
type reportsRepo struct{ d *DB }

var _ report.Repository = reportsRepo{}

// utrClaimsRepo: one claim per UTR, as the database's primary key.
type utrClaimsRepo struct{ d *DB }

type utrClaim struct {
	owner string
	id    uint64
}

var _ utr.Claims = utrClaimsRepo{}

func (r utrClaimsRepo) Claim(_ context.Context, u, owner string, ownerID uint64) error {
	return r.d.do("UTRs.Claim", func(t *tables) error {
		if c, ok := t.utrClaims[u]; ok {
			if c == (utrClaim{owner, ownerID}) {
				return nil
			}
			return utr.ErrTaken
		}
		t.utrClaims[u] = utrClaim{owner, ownerID}
		return nil
	})
}

func (r utrClaimsRepo) Release(_ context.Context, u, owner string, ownerID uint64) error {
	return r.d.do("UTRs.Release", func(t *tables) error {
		if t.utrClaims[u] == (utrClaim{owner, ownerID}) {
			delete(t.utrClaims, u)
		}
		return nil
	})
}

type namesRepo struct{ d *DB }

var _ directory.Repository = namesRepo{}

func (r namesRepo) Names(_ context.Context, ids directory.IDs) (directory.Names, error) {
	n := directory.Names{Users: map[uint64]directory.User{}, Keys: map[uint64]directory.Key{}, Services: map[uint64]directory.Service{}}
	err := r.d.do("Names.Names", func(t *tables) error {
		for _, id := range ids.Users {
			if u, ok := t.users[id]; ok {
				n.Users[id] = directory.User{ID: id, Name: u.Name, Email: u.Email}
			}
		}
		for _, id := range ids.Keys {
			if k, ok := t.keys[id]; ok {
				n.Keys[id] = directory.Key{ID: id, UserID: k.UserID, Name: k.Name}
			}
		}
		for _, id := range ids.Services {
			if s, ok := t.services[id]; ok {
				n.Services[id] = directory.Service{ID: id, Name: s.Name, Slug: s.Slug}
			}
		}
		return nil
	})
	return n, err
}
