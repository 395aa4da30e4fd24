package money

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/money/topup"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
)

// Upload is a file as the edge received it.
type Upload struct {
	Body io.Reader
	Size int64 // as the edge counted it; -1 when unknown (the cap still holds while copying)
}

// NewTopUp is a balance request as submitted, with an optional screenshot.
type NewTopUp struct {
	topup.Input
	Screenshot *Upload
}

// errUploadTooLarge ends the copy of a screenshot past topup.MaxScreenshotBytes.
var errUploadTooLarge = errors.New("upload larger than its cap")

// CreateTopUp files a pending balance request for the caller, who must be
// active. Every field and the screenshot's type and size are checked before
// anything is stored; the screenshot is saved first, under a fresh
// server-chosen name, and deleted again if the row cannot be inserted
// (a UTR a payment or another request claimed answers topup.ErrUTRTaken).
func (p *TopUps) CreateTopUp(ctx context.Context, actor *user.User, in NewTopUp) (*topup.Request, error) {
	if err := actor.CanAct(); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	r, err := topup.New(actor.ID, in.Input, p.cfg.MaxTopUp, p.now())
	if err := fe.Merge(err); err != nil {
		return nil, err
	}
	var (
		body io.Reader
		typ  topup.FileType
	)
	if in.Screenshot != nil {
		body, typ, err = sniffScreenshot(in.Screenshot)
		if err := fe.Merge(err); err != nil {
			return nil, err
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	// A soft cap (concurrent requests may pass it together): it bounds
	// storage per account, it guards no money.
	uid := actor.ID
	if _, pending, err := p.requests.List(ctx, topup.Filter{UserID: &uid, Status: topup.StatusPending, PerPage: 1}); err != nil {
		return nil, fmt.Errorf("count pending balance requests: %w", err)
	} else if pending >= topup.MaxPending {
		return nil, topup.ErrTooManyPending
	}
	if body != nil {
		if p.files == nil {
			return nil, errors.New("save screenshot: no file storage configured")
		}
		name := topup.NewFileName(typ, p.now())
		if err := p.files.Save(ctx, name, &cappedReader{r: body, left: topup.MaxScreenshotBytes}); err != nil {
			if errors.Is(err, errUploadTooLarge) {
				return nil, topup.ErrScreenshotTooLarge
			}
			return nil, fmt.Errorf("save screenshot: %w", err)
		}
		r.Screenshot = &name
	}
	// The request and its UTR's claim commit together: a UTR a payment or
	// another request claimed is refused, also when the two race.
	err = p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.TopUps.Create(ctx, r); err != nil {
			return err
		}
		if err := s.UTRs.Claim(ctx, r.UTRNumber, utr.OwnerBalanceRequest, r.ID); err != nil {
			if errors.Is(err, utr.ErrTaken) {
				return topup.ErrUTRTaken.Wrap(err)
			}
			return err
		}
		return nil
	})
	if err != nil {
		if r.Screenshot != nil {
			// The file would be unreachable without its row.
			if derr := p.files.Delete(context.WithoutCancel(ctx), *r.Screenshot); derr != nil {
				err = errors.Join(err, fmt.Errorf("delete screenshot %s: %w", *r.Screenshot, derr))
			}
		}
		return nil, err
	}
	return r, nil
}

// sniffScreenshot checks the declared size and the first bytes of an upload
// and returns a reader of the whole content.
func sniffScreenshot(u *Upload) (io.Reader, topup.FileType, error) {
	if u.Size > topup.MaxScreenshotBytes {
		return nil, topup.FileType{}, topup.ErrScreenshotTooLarge
	}
	head := make([]byte, topup.SniffBytes)
	n, err := io.ReadFull(u.Body, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, topup.FileType{}, fmt.Errorf("read screenshot: %w", err)
	}
	if n == 0 {
		return nil, topup.FileType{}, topup.ErrScreenshotEmpty
	}
	typ, ok := topup.FileTypeOf(head[:n])
	if !ok {
		return nil, topup.FileType{}, topup.ErrScreenshotType
	}
	return io.MultiReader(bytes.NewReader(head[:n]), u.Body), typ, nil
}

// cappedReader fails with errUploadTooLarge once more than left bytes came.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, errUploadTooLarge
	}
	return n, err
}

// ListTopUps lists balance requests: a user's own; an admin's any user's
// (everyone's when f.UserID is nil).
func (p *TopUps) ListTopUps(ctx context.Context, actor *user.User, f topup.Filter) ([]topup.Request, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return p.requests.List(ctx, f)
}

// ListCustomerTopUps lists the balance requests of the calling reseller's
// customers (f.UserID narrows to one of them).
func (p *TopUps) ListCustomerTopUps(ctx context.Context, actor *user.User, f topup.Filter) ([]topup.Request, int64, error) {
	if actor.Role != user.RoleReseller {
		return nil, 0, errs.ErrForbidden
	}
	id := actor.ID
	f.ParentID = &id
	return p.requests.List(ctx, f)
}

// GetTopUp shows one request to its owner, an admin, or the owner's
// reseller; to anyone else it does not exist.
func (p *TopUps) GetTopUp(ctx context.Context, actor *user.User, id uint64) (*topup.Request, error) {
	r, err := p.requests.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if actor.Role == user.RoleAdmin || r.UserID == actor.ID {
		return r, nil
	}
	if actor.Role == user.RoleReseller {
		// A reseller decides its customers' requests: it reads them, and
		// their screenshots, too.
		if err := ownCustomers(ctx, p.users, actor, r); err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, topup.ErrNotFound
}

// TopUpScreenshot opens the screenshot of a request the caller may see. Its
// type is the one detected from the content at upload.
func (p *TopUps) TopUpScreenshot(ctx context.Context, actor *user.User, id uint64) (io.ReadCloser, topup.FileType, error) {
	r, err := p.GetTopUp(ctx, actor, id)
	if err != nil {
		return nil, topup.FileType{}, err
	}
	if r.Screenshot == nil || p.files == nil {
		return nil, topup.FileType{}, topup.ErrScreenshotNotFound
	}
	typ, ok := topup.FileTypeOfName(*r.Screenshot)
	if !ok {
		return nil, topup.FileType{}, fmt.Errorf("balance request %d: stored screenshot name %q has no known type", id, *r.Screenshot)
	}
	f, err := p.files.Open(ctx, *r.Screenshot)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, topup.FileType{}, topup.ErrScreenshotNotFound.Wrap(err)
		}
		return nil, topup.FileType{}, fmt.Errorf("open screenshot of balance request %d: %w", id, err)
	}
	return f, typ, nil
}

// ApproveTopUp approves a pending request and credits its amount (admin
// only); see decideTopUp.
func (p *TopUps) ApproveTopUp(ctx context.Context, actor *user.User, id uint64, remarks string) (*topup.Request, error) {
	return p.decideTopUp(ctx, actor, id, topup.StatusApproved, remarks)
}

// RejectTopUp rejects a pending request with required remarks (admin only).
func (p *TopUps) RejectTopUp(ctx context.Context, actor *user.User, id uint64, remarks string) (*topup.Request, error) {
	return p.decideTopUp(ctx, actor, id, topup.StatusRejected, remarks)
}

// decideTopUp is the one place a balance request is decided. In one
// transaction: the decision is written by a conditional update that only
// a pending row accepts (so of concurrent deciders exactly one wins, the
// others get topup.ErrAlreadyDecided), and an approval posts the credit
// (ledger type credit, reference balance_request #id) under the owner's row
// lock. Any failure rolls both back. Decision hooks (audit log, the
// balance_request.* event) belong here, inside the transaction.
func (p *TopUps) decideTopUp(ctx context.Context, actor *user.User, id uint64, to topup.Status, remarks string) (*topup.Request, error) {
	// A reseller decides its own customers' requests (decisions "Resellers: transfers and balance requests").
	if actor == nil || actor.Role != user.RoleReseller {
		if err := panel.RequireAdmin(actor); err != nil {
			return nil, err
		}
	}
	var out *topup.Request
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		var err error
		out, err = p.decideTopUpIn(ctx, s, actor, id, to, remarks)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ApproveTopUpTx is ApproveTopUp inside the caller's transaction s
// (reconciliation approves the request a bank statement line pays, in the
// transaction that matches the line). A reseller's customer's request is
// refused (topup.ErrResellerDecides, see notACustomers).
func (p *TopUps) ApproveTopUpTx(ctx context.Context, s TxStores, actor *user.User, id uint64, remarks string) (*topup.Request, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	return p.decideTopUpIn(ctx, s, actor, id, topup.StatusApproved, remarks)
}

// decideTopUpIn decides request id in transaction s (see decideTopUp).
func (p *TopUps) decideTopUpIn(ctx context.Context, s TxStores, actor *user.User, id uint64, to topup.Status, remarks string) (*topup.Request, error) {
	var out *topup.Request
	err := func() error {
		r, err := s.TopUps.ByID(ctx, id)
		if err != nil {
			return err
		}
		if actor.Role == user.RoleReseller {
			if err := ownCustomers(ctx, s.Users, actor, r); err != nil {
				return err
			}
		} else if err := notACustomers(ctx, s.Users, r); err != nil {
			return err
		}
		before := topUpSnapshot(r)
		now := p.now()
		if to == topup.StatusApproved {
			err = r.Approve(actor.ID, now, remarks)
		} else {
			err = r.Reject(actor.ID, now, remarks)
		}
		if err != nil {
			return err
		}
		if err := s.TopUps.Decide(ctx, r); err != nil {
			return err
		}
		action := audit.BalanceRequestReject
		var owner *user.User
		if to == topup.StatusApproved {
			action = audit.BalanceRequestApprove
			if actor.Role == user.RoleReseller {
				owner, err = p.transferTopUp(ctx, s, actor, r)
			} else {
				owner, err = p.creditTopUp(ctx, s, r)
			}
			if err != nil {
				return err
			}
		} else if owner, err = s.Users.ByID(ctx, r.UserID); err != nil {
			return fmt.Errorf("owner of balance request %d: %w", r.ID, err)
		}
		if err := p.emitTopUp(ctx, s, owner, r); err != nil {
			return err
		}
		out = r
		return store.Record(ctx, s.Audit, p.now(), actor, action, audit.TargetBalanceRequest, r.ID, before, topUpSnapshot(r))
	}()
	if err != nil {
		return nil, err
	}
	return out, nil
}

// notACustomers answers topup.ErrResellerDecides when r's owner is a
// reseller's customer: the customer paid its reseller, not the platform, so
// only its reseller decides it (an admin's credit would be money the
// platform never received).
func notACustomers(ctx context.Context, users Users, r *topup.Request) error {
	owner, err := users.ByID(ctx, r.UserID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return topup.ErrNotFound
		}
		return fmt.Errorf("owner of balance request %d: %w", r.ID, err)
	}
	if owner.ParentID != nil {
		return topup.ErrResellerDecides
	}
	return nil
}

// ownCustomers answers topup.ErrNotFound unless r's owner is reseller's
// customer.
func ownCustomers(ctx context.Context, users Users, reseller *user.User, r *topup.Request) error {
	owner, err := users.ByID(ctx, r.UserID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return topup.ErrNotFound
		}
		return fmt.Errorf("owner of balance request %d: %w", r.ID, err)
	}
	if owner.ParentID == nil || *owner.ParentID != reseller.ID {
		return topup.ErrNotFound
	}
	return nil
}

// transferTopUp pays r's amount from the reseller to its customer, r's
// owner (the customer paid the reseller outside): a transfer (panel.Move),
// 402 when the reseller's available balance is short. It returns the owner.
func (p *TopUps) transferTopUp(ctx context.Context, s TxStores, reseller *user.User, r *topup.Request) (*user.User, error) {
	ref := r.ID
	m, err := panel.Move(ctx, s.MoveStores, p.now(), p.cfg.Livemode, &transfer.Transfer{ResellerID: reseller.ID, CustomerID: r.UserID,
		Direction: transfer.ToCustomer, Amount: r.Amount, BalanceRequestID: &ref})
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, topup.ErrNotFound
		}
		return nil, err
	}
	return m.Customer, nil
}

// creditTopUp credits r's amount to its owner, whom it returns.
func (p *TopUps) creditTopUp(ctx context.Context, s TxStores, r *topup.Request) (*user.User, error) {
	u, err := s.Users.LockByID(ctx, r.UserID)
	if err != nil {
		return nil, fmt.Errorf("lock owner of balance request %d: %w", r.ID, err)
	}
	if !inr.FitsColumn(u.Balance.Add(r.Amount), 12, 2) {
		return nil, topup.ErrBalanceFull
	}
	ref := r.ID
	desc := fmt.Sprintf("Balance request #%d approved (UTR %s)", r.ID, r.UTRNumber)
	if _, err := store.Post(ctx, s.Books, p.now(), p.cfg.Livemode, u, ledger.Credit, r.Amount, ledger.RefBalanceRequest, &ref, desc); err != nil {
		return nil, err
	}
	return u, s.Users.SaveBalance(ctx, u)
}

// emitTopUp writes the event of r's decision.
func (p *TopUps) emitTopUp(ctx context.Context, s TxStores, u *user.User, r *topup.Request) error {
	t := webhook.BalanceRequestApproved
	if r.Status == topup.StatusRejected {
		t = webhook.BalanceRequestRejected
	}
	return store.EmitMode(ctx, s.Webhooks, p.now(), u, t, map[string]any{
		"balance_request_id": r.ID, "amount": inr.Format2(r.Amount), "utr_number": r.UTRNumber,
		"status": r.Status, "admin_remarks": r.AdminRemarks,
	}, "", p.cfg.Livemode)
}
