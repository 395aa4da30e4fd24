package panel_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/audit"
	auditmocks "paygate/core/audit/mocks"
	"paygate/core/errs"
	"paygate/core/ledger"
	ledgermocks "paygate/core/ledger/mocks"
	"paygate/core/panel"
	panelmocks "paygate/core/panel/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/topup"
	topupmocks "paygate/core/topup/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

// topUpFixture is the world of balance requests made of mocks.
type topUpFixture struct {
	tx        *storemocks.MockTransactor
	files     *panelmocks.MockFiles
	users     *usermocks.MockRepository
	ledger    *ledgermocks.MockRepository
	topups    *topupmocks.MockRepository
	audit     *auditmocks.MockRepository
	logged    []*audit.Entry // audit entries written
	panel     *panel.Panel
	now       time.Time
	admin     *user.User
	owner     *user.User
	undecided int64 // the owner's pending requests, as the store counts them
}

func newTopUpFixture(t *testing.T) *topUpFixture {
	f := &topUpFixture{
		tx: storemocks.NewMockTransactor(t), files: panelmocks.NewMockFiles(t), users: usermocks.NewMockRepository(t),
		ledger: ledgermocks.NewMockRepository(t), topups: topupmocks.NewMockRepository(t), audit: auditmocks.NewMockRepository(t),
		now:   time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
		admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive},
		owner: &user.User{ID: 11, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("100.00"), TotalSpent: dec("5.00")},
	}
	stores := store.Stores{Users: f.users, Ledger: f.ledger, TopUps: f.topups, Audit: f.audit}
	f.audit.EXPECT().Add(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *audit.Entry) error {
		f.logged = append(f.logged, e)
		return nil
	}).Maybe()
	f.panel = panel.New(panel.Deps{Tx: f.tx, Stores: stores, Files: f.files, Now: func() time.Time { return f.now },
		Config: panel.Config{MaxTopUp: dec("50000.00")}})
	f.topups.EXPECT().List(mock.Anything, mock.MatchedBy(func(fl topup.Filter) bool {
		return fl.Status == topup.StatusPending && fl.UserID != nil && fl.PerPage == 1
	})).RunAndReturn(func(context.Context, topup.Filter) ([]topup.Request, int64, error) { return nil, f.undecided, nil }).Maybe()
	f.tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	return f
}

func (f *topUpFixture) pending(id uint64) *topup.Request {
	return &topup.Request{ID: id, UserID: f.owner.ID, Amount: dec("250.50"), UTRNumber: "412345678901", PaymentMethod: "upi",
		Status: topup.StatusPending, CreatedAt: f.now.Add(-time.Hour), UpdatedAt: f.now.Add(-time.Hour)}
}

func validationFields(t *testing.T, err error) map[string][]string {
	t.Helper()
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || e.Fields == nil {
		t.Fatalf("want a validation error, got %v", err)
	}
	return e.Fields
}

var pngHead = "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"
var storedName = regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{26}\.png$`)

func TestCreateTopUpStoresScreenshotThenRow(t *testing.T) {
	f := newTopUpFixture(t)
	content := pngHead + strings.Repeat("p", 1000)
	var saved string
	f.files.EXPECT().Save(mock.Anything, mock.AnythingOfType("string"), mock.Anything).RunAndReturn(
		func(_ context.Context, name string, r io.Reader) error {
			b, err := io.ReadAll(r)
			if err != nil || string(b) != content || !storedName.MatchString(name) {
				t.Errorf("Save(%q) got %d bytes, err %v", name, len(b), err)
			}
			saved = name
			return nil
		}).Once()
	f.topups.EXPECT().Create(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, r *topup.Request) error {
		if r.Screenshot == nil || *r.Screenshot != saved || r.UserID != 11 || r.UTRNumber != "412345678901" || r.Status != topup.StatusPending {
			t.Errorf("Create(%+v)", r)
		}
		r.ID = 5
		return nil
	}).Once()
	r, err := f.panel.CreateTopUp(context.Background(), f.owner, panel.NewTopUp{
		Input:      topup.Input{Amount: "250.50", UTRNumber: "412345678901", PaymentMethod: "upi"},
		Screenshot: &panel.Upload{Body: strings.NewReader(content), Size: int64(len(content))},
	})
	if err != nil || r.ID != 5 {
		t.Fatalf("CreateTopUp = %+v, %v", r, err)
	}
}

func TestCreateTopUpWithoutScreenshot(t *testing.T) {
	f := newTopUpFixture(t)
	f.topups.EXPECT().Create(mock.Anything, mock.MatchedBy(func(r *topup.Request) bool { return r.Screenshot == nil })).Return(nil).Once()
	if _, err := f.panel.CreateTopUp(context.Background(), f.owner, panel.NewTopUp{Input: topup.Input{Amount: "1", UTRNumber: "412345678901"}}); err != nil {
		t.Fatal(err)
	}
}

// Nothing is stored when any field or the file is wrong; every problem is
// reported at once. (The mocks fail the test on any unexpected call.)
func TestCreateTopUpRefusesBeforeStoring(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	cases := []struct {
		name   string
		in     panel.NewTopUp
		fields []string
	}{
		{"fields and a text file", panel.NewTopUp{
			Input:      topup.Input{Amount: "50000.01", UTRNumber: "x"},
			Screenshot: &panel.Upload{Body: strings.NewReader("just some text, named shot.png"), Size: 30},
		}, []string{"amount", "screenshot", "utr_number"}},
		{"empty file", panel.NewTopUp{
			Input:      topup.Input{Amount: "10", UTRNumber: "412345678901"},
			Screenshot: &panel.Upload{Body: strings.NewReader(""), Size: 0},
		}, []string{"screenshot"}},
		{"declared too large", panel.NewTopUp{
			Input:      topup.Input{Amount: "10", UTRNumber: "412345678901"},
			Screenshot: &panel.Upload{Body: strings.NewReader(pngHead), Size: topup.MaxScreenshotBytes + 1},
		}, []string{"screenshot"}},
	}
	for _, tc := range cases {
		_, err := f.panel.CreateTopUp(ctx, f.owner, tc.in)
		got := validationFields(t, err)
		if len(got) != len(tc.fields) {
			t.Errorf("%s: errors %v, want on %v", tc.name, got, tc.fields)
		}
		for _, k := range tc.fields {
			if len(got[k]) == 0 {
				t.Errorf("%s: no error on %s: %v", tc.name, k, got)
			}
		}
	}
	blocked := &user.User{ID: 12, Role: user.RoleUser, Status: user.StatusBlocked}
	if _, err := f.panel.CreateTopUp(ctx, blocked, panel.NewTopUp{Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}}); !errors.Is(err, user.ErrNotActive) {
		t.Fatalf("blocked user: %v", err)
	}
}

// A body whose size the edge did not know is cut at the cap while copying.
func TestCreateTopUpCapsUndeclaredSize(t *testing.T) {
	f := newTopUpFixture(t)
	f.files.EXPECT().Save(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, _ string, r io.Reader) error {
		n, err := io.Copy(io.Discard, r)
		if n > topup.MaxScreenshotBytes {
			t.Errorf("the reader gave %d bytes, more than the cap", n)
		}
		return err
	}).Once()
	big := io.MultiReader(strings.NewReader(pngHead), bytes.NewReader(make([]byte, topup.MaxScreenshotBytes)))
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, panel.NewTopUp{
		Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}, Screenshot: &panel.Upload{Body: big, Size: -1}})
	if got := validationFields(t, err); len(got["screenshot"]) != 1 {
		t.Fatalf("errors %v", got)
	}
}

func TestCreateTopUpDeletesFileWhenRowFails(t *testing.T) {
	f := newTopUpFixture(t)
	var saved string
	f.files.EXPECT().Save(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, name string, r io.Reader) error {
		saved = name
		_, err := io.Copy(io.Discard, r)
		return err
	}).Once()
	f.topups.EXPECT().Create(mock.Anything, mock.Anything).Return(topup.ErrUTRTaken).Once()
	f.files.EXPECT().Delete(mock.Anything, mock.AnythingOfType("string")).RunAndReturn(func(_ context.Context, name string) error {
		if name != saved {
			t.Errorf("deleted %q, saved %q", name, saved)
		}
		return nil
	}).Once()
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, panel.NewTopUp{
		Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}, Screenshot: &panel.Upload{Body: strings.NewReader("%PDF-1.4 x"), Size: 10}})
	if !errors.Is(err, topup.ErrUTRTaken) {
		t.Fatalf("err = %v, want ErrUTRTaken", err)
	}
}

func TestApproveTopUpCreditsInTheSameTransaction(t *testing.T) {
	f := newTopUpFixture(t)
	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.MatchedBy(func(r *topup.Request) bool {
		return r.Status == topup.StatusApproved && *r.ApprovedBy == 1 && r.ApprovedAt.Equal(f.now) && *r.AdminRemarks == "ok"
	})).Return(nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.owner
		return &u, nil
	}).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.UserID == 11 && e.Type == ledger.Credit && e.Amount.Equal(dec("250.50")) && e.BalanceBefore.Equal(dec("100.00")) &&
			e.BalanceAfter.Equal(dec("350.50")) && e.ReferenceType == "balance_request" && e.ReferenceID != nil && *e.ReferenceID == 5 &&
			strings.Contains(e.Description, "412345678901")
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("350.50")) && u.TotalSpent.Equal(dec("5.00"))
	})).Return(nil).Once()
	r, err := f.panel.ApproveTopUp(context.Background(), f.admin, 5, " ok ")
	if err != nil || r.Status != topup.StatusApproved {
		t.Fatalf("ApproveTopUp = %+v, %v", r, err)
	}
	if len(f.logged) != 1 || f.logged[0].Action != audit.BalanceRequestApprove || *f.logged[0].TargetID != 5 ||
		!strings.Contains(string(f.logged[0].Before), `"status":"pending"`) || !strings.Contains(string(f.logged[0].After), `"status":"approved"`) {
		t.Fatalf("audit entries %+v", f.logged)
	}
}

func TestApproveTopUpRefusals(t *testing.T) {
	ctx := context.Background()
	t.Run("lost the race", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
		f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(topup.ErrAlreadyDecided).Once()
		// No lock, no ledger row: the mocks fail on any such call.
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("already decided", func(t *testing.T) {
		f := newTopUpFixture(t)
		r := f.pending(5)
		r.Status = topup.StatusRejected
		f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(r, nil).Twice()
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("approve: %v", err)
		}
		if _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "again"); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("reject: %v", err)
		}
	})
	t.Run("unknown id", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.topups.EXPECT().ByID(mock.Anything, uint64(9)).Return(nil, topup.ErrNotFound).Once()
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 9, ""); errs.KindOf(err) != errs.NotFound {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not an admin", func(t *testing.T) {
		f := newTopUpFixture(t)
		if _, err := f.panel.ApproveTopUp(ctx, f.owner, 5, ""); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("approve: %v", err)
		}
		if _, err := f.panel.RejectTopUp(ctx, f.owner, 5, "no"); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("reject: %v", err)
		}
	})
	t.Run("balance would overflow", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
		f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
		f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, Balance: dec("9999999900.00"), TotalSpent: dec("0")}, nil).Once()
		_, err := f.panel.ApproveTopUp(ctx, f.admin, 5, "")
		if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Code != "balance_too_large" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ledger failure is returned", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
		f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
		f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, Balance: dec("1"), TotalSpent: dec("0")}, nil).Once()
		boom := errors.New("disk full")
		f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(boom).Once()
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestRejectTopUp(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	if got := validationFields(t, func() error { _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "  "); return err }()); len(got["admin_remarks"]) != 1 {
		t.Fatalf("errors %v", got)
	}
	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.MatchedBy(func(r *topup.Request) bool {
		return r.Status == topup.StatusRejected && *r.ApprovedBy == 1 && *r.AdminRemarks == "no such transfer"
	})).Return(nil).Once()
	// No credit: no user lock, no ledger row; the owner is read for the
	// event (no webhook_url: no outbox row).
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	r, err := f.panel.RejectTopUp(ctx, f.admin, 5, "no such transfer")
	if err != nil || r.Status != topup.StatusRejected {
		t.Fatalf("RejectTopUp = %+v, %v", r, err)
	}
}

func TestTopUpVisibility(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	other := &user.User{ID: 99, Role: user.RoleReseller, Status: user.StatusActive}
	withShot := f.pending(5)
	name := "01JABCDEFGHJKMNPQRSTVWXYZ0.webp"
	withShot.Screenshot = &name
	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(withShot, nil)
	f.topups.EXPECT().ByID(mock.Anything, uint64(6)).Return(f.pending(6), nil)

	if _, err := f.panel.GetTopUp(ctx, other, 5); !errors.Is(err, topup.ErrNotFound) {
		t.Fatalf("another user's request: %v", err)
	}
	if _, _, err := f.panel.TopUpScreenshot(ctx, other, 5); !errors.Is(err, topup.ErrNotFound) {
		t.Fatalf("another user's screenshot: %v", err)
	}
	for _, who := range []*user.User{f.owner, f.admin} {
		if r, err := f.panel.GetTopUp(ctx, who, 5); err != nil || r.ID != 5 {
			t.Fatalf("GetTopUp as %s: %v", who.Role, err)
		}
	}
	f.files.EXPECT().Open(mock.Anything, name).Return(io.NopCloser(strings.NewReader("RIFF....WEBP")), nil).Once()
	rc, typ, err := f.panel.TopUpScreenshot(ctx, f.owner, 5)
	if err != nil || typ != topup.WebP {
		t.Fatalf("TopUpScreenshot = %v, %v", typ, err)
	}
	rc.Close()
	if _, _, err := f.panel.TopUpScreenshot(ctx, f.admin, 6); !errors.Is(err, topup.ErrScreenshotNotFound) {
		t.Fatalf("no screenshot: %v", err)
	}
	f.files.EXPECT().Open(mock.Anything, name).Return(nil, errs.ErrNotFound).Once()
	if _, _, err := f.panel.TopUpScreenshot(ctx, f.admin, 5); !errors.Is(err, topup.ErrScreenshotNotFound) {
		t.Fatalf("lost file: %v", err)
	}
}

func TestListTopUpsScopesNonAdmins(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	other := uint64(99)
	f.topups.EXPECT().List(mock.Anything, mock.MatchedBy(func(fl topup.Filter) bool {
		return fl.UserID != nil && *fl.UserID == 11 && fl.Status == topup.StatusPending
	})).Return(nil, 0, nil).Once()
	if _, _, err := f.panel.ListTopUps(ctx, f.owner, topup.Filter{UserID: &other, Status: topup.StatusPending}); err != nil {
		t.Fatal(err)
	}
	f.topups.EXPECT().List(mock.Anything, mock.MatchedBy(func(fl topup.Filter) bool { return fl.UserID == nil })).Return(nil, 0, nil).Once()
	if _, _, err := f.panel.ListTopUps(ctx, f.admin, topup.Filter{}); err != nil {
		t.Fatal(err)
	}
}

func TestCreateTopUpCapsPendingRequests(t *testing.T) {
	f := newTopUpFixture(t)
	f.undecided = topup.MaxPending
	// No file saved, no row inserted: the mocks fail on any such call.
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, panel.NewTopUp{
		Input:      topup.Input{Amount: "100.00", UTRNumber: "412345678901"},
		Screenshot: &panel.Upload{Body: strings.NewReader(pngHead + "rest of the image"), Size: int64(len(pngHead) + 17)},
	})
	if !errors.Is(err, topup.ErrTooManyPending) {
		t.Fatalf("err = %v, want the pending cap", err)
	}
}

func TestDecidedTopUpWritesItsEvent(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := store.Stores{Users: f.users, Ledger: f.ledger, TopUps: f.topups, Audit: f.audit, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) })
	f.panel = panel.New(panel.Deps{Tx: tx, Stores: stores, Now: func() time.Time { return f.now }})
	hook := "https://merchant.example/hooks"
	f.owner.WebhookURL = &hook

	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool {
		return e.Type == webhook.BalanceRequestRejected && e.UserID == 11
	}), mock.MatchedBy(func(ds []*webhook.Delivery) bool { return len(ds) == 1 && ds[0].URL == hook })).Return(nil).Once()
	if _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "no such transfer"); err != nil {
		t.Fatal(err)
	}

	// The outbox refusing the row rolls the decision back with it.
	f.topups.EXPECT().ByID(mock.Anything, uint64(6)).Return(f.pending(6), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil).Once()
	boom := errors.New("disk full")
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool { return e.Type == webhook.BalanceRequestApproved }),
		mock.Anything).Return(boom).Once()
	if _, err := f.panel.ApproveTopUp(ctx, f.admin, 6, ""); !errors.Is(err, boom) {
		t.Fatalf("approve: %v", err)
	}
}
