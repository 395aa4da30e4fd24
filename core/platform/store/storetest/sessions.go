package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/accounts/session"
	"paygate/core/platform/errs"
)

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
