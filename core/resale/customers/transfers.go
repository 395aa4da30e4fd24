package customers

import (
	"context"
	"errors"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/gateway/payment"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// Transferred is a transfer's answer.
type Transferred struct {
	panel.Moved
	Replayed bool // an earlier request's transfer (same Idempotency-Key and body)
}

// Transfer moves money between the caller and its customer id (see
// panel.Move), idempotent by key when key is not empty: the same key and
// body answer the first transfer again (with today's balances), the same
// key with another body is 409 idempotency_key_reused.
func (p *Customers) Transfer(ctx context.Context, actor *user.User, id uint64, in transfer.Input, key string) (*Transferred, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	amount, dir, err := transfer.Parse(in)
	if err != nil {
		if err := fe.Merge(err); err != nil {
			return nil, err
		}
	}
	if key != "" && !payment.ValidIdempotencyKey(key) {
		fe["Idempotency-Key"] = payment.ErrIdempotencyKeyInvalid.Fields["Idempotency-Key"]
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	if _, err := p.Get(ctx, actor, id); err != nil {
		return nil, err
	}
	hash := transfer.RequestHash(id, dir, amount)
	// A concurrent duplicate loses the unique key and rolls back; the
	// second round finds the winner's row.
	for round := 0; ; round++ {
		out, err := p.transferOnce(ctx, actor, id, amount, dir, key, hash)
		if errors.Is(err, transfer.ErrKeyTaken) && round == 0 {
			continue
		}
		return out, err
	}
}

func (p *Customers) transferOnce(ctx context.Context, actor *user.User, id uint64, amount decimal.Decimal, dir transfer.Direction, key, hash string) (*Transferred, error) {
	var out *Transferred
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if key != "" {
			first, err := s.Transfers.ByKey(ctx, actor.ID, key)
			switch {
			case err == nil:
				if first.RequestHash != hash {
					return transfer.ErrKeyReused
				}
				r, err := s.Users.ByID(ctx, first.ResellerID)
				if err != nil {
					return err
				}
				c, err := s.Users.ByID(ctx, first.CustomerID)
				if err != nil {
					return err
				}
				out = &Transferred{Moved: panel.Moved{Transfer: *first, Reseller: r, Customer: c}, Replayed: true}
				return nil
			case errs.KindOf(err) != errs.NotFound:
				return err
			}
		}
		t := &transfer.Transfer{ResellerID: actor.ID, CustomerID: id, Direction: dir, Amount: amount, RequestHash: hash}
		if key != "" {
			t.IdempotencyKey = &key
		}
		m, err := panel.Move(ctx, s.MoveStores, p.now(), p.cfg.Livemode, t)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return ErrNotFound
			}
			return err
		}
		out = &Transferred{Moved: *m}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.TransferCreate, audit.TargetTransfer, t.ID, nil, map[string]any{
			"customer_id": id, "direction": string(dir), "amount": inr.Format2(amount),
			"reseller_balance": inr.Format2(m.Reseller.Balance), "customer_balance": inr.Format2(m.Customer.Balance)})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Transfers lists the transfers between the caller and customer id.
func (p *Customers) Transfers(ctx context.Context, actor *user.User, id uint64, page, perPage int) ([]transfer.Transfer, int64, error) {
	c, err := p.Get(ctx, actor, id)
	if err != nil {
		return nil, 0, err
	}
	return p.st.Transfers.List(ctx, transfer.Filter{ResellerID: actor.ID, CustomerID: &c.ID, Page: page, PerPage: perPage})
}
