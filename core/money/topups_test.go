package money_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"paygate/core/money"
	"paygate/core/platform/store"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/audit"
	panelmocks "paygate/core/accounts/panel/mocks"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

// topUpFixture is the world of balance requests: the in-memory store with
// the admin (1) and the owner (11), and a mock for the file storage.
type topUpFixture struct {
	db    *storetest.DB
	files *panelmocks.MockFiles
	panel *money.TopUps
	now   time.Time
	admin *user.User
	owner *user.User
}

func newTopUpFixture(t *testing.T) *topUpFixture {
	f := &topUpFixture{
		db: storetest.New(), files: panelmocks.NewMockFiles(t),
		now:   time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
		admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive},
		owner: &user.User{ID: 11, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("100.00"), TotalSpent: dec("5.00")},
	}
	f.db.Put(*f.admin, *f.owner)
	f.panel = money.New(money.Deps{Tx: store.Narrow(f.db, money.TxStoresOf), Requests: f.db.Stores().TopUps, Users: f.db.Stores().Users, Files: f.files, Now: func() time.Time { return f.now },
		Config: money.Config{MaxTopUp: dec("50000.00")}})
	return f
}

// pending stores the owner's pending request id and returns it.
func (f *topUpFixture) pending(id uint64) *topup.Request {
	r := topup.Request{ID: id, UserID: f.owner.ID, Amount: dec("250.50"), UTRNumber: "41234567890" + string(rune('0'+id%10)), PaymentMethod: "upi",
		Status: topup.StatusPending, CreatedAt: f.now.Add(-time.Hour), UpdatedAt: f.now.Add(-time.Hour)}
	f.db.Put(r)
	return &r
}

func (f *topUpFixture) request(t *testing.T, id uint64) topup.Request {
	t.Helper()
	for _, r := range f.db.TopUps() {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no balance request %d", id)
	return topup.Request{}
}

// untouched fails t unless request id is still pending and the owner's
// balance, the ledger, the outbox and the audit log are as they were.
func (f *topUpFixture) untouched(t *testing.T, id uint64) {
	t.Helper()
	if r := f.request(t, id); r.Status != topup.StatusPending || r.ApprovedBy != nil {
		t.Errorf("request %d decided: %+v", id, r)
	}
	if u := f.db.User(11); !u.Balance.Equal(dec("100.00")) || !u.TotalSpent.Equal(dec("5.00")) {
		t.Errorf("owner's balance moved: %s / %s", u.Balance, u.TotalSpent)
	}
	if n, e, a := len(f.db.Entries()), len(f.db.Events()), len(f.db.AuditEntries()); n+e+a != 0 {
		t.Errorf("%d ledger entries, %d events, %d audit entries written", n, e, a)
	}
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
			if n := len(f.db.TopUps()); n != 0 {
				t.Errorf("%d rows before the file was saved", n)
			}
			saved = name
			return nil
		}).Once()
	r, err := f.panel.CreateTopUp(context.Background(), f.owner, money.NewTopUp{
		Input:      topup.Input{Amount: "250.50", UTRNumber: "412345678901", PaymentMethod: "upi"},
		Screenshot: &money.Upload{Body: strings.NewReader(content), Size: int64(len(content))},
	})
	if err != nil || r.ID == 0 {
		t.Fatalf("CreateTopUp = %+v, %v", r, err)
	}
	got := f.request(t, r.ID)
	if got.Screenshot == nil || *got.Screenshot != saved || got.UserID != 11 || got.UTRNumber != "412345678901" ||
		got.Status != topup.StatusPending || !got.Amount.Equal(dec("250.50")) {
		t.Errorf("stored %+v", got)
	}
}

func TestCreateTopUpWithoutScreenshot(t *testing.T) {
	f := newTopUpFixture(t)
	r, err := f.panel.CreateTopUp(context.Background(), f.owner, money.NewTopUp{Input: topup.Input{Amount: "1", UTRNumber: "412345678901"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.request(t, r.ID); got.Screenshot != nil {
		t.Fatalf("stored %+v", got)
	}
}

// Nothing is stored when any field or the file is wrong; every problem is
// reported at once. (The file mock fails the test on any call.)
func TestCreateTopUpRefusesBeforeStoring(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	cases := []struct {
		name   string
		in     money.NewTopUp
		fields []string
	}{
		{"fields and a text file", money.NewTopUp{
			Input:      topup.Input{Amount: "50000.01", UTRNumber: "x"},
			Screenshot: &money.Upload{Body: strings.NewReader("just some text, named shot.png"), Size: 30},
		}, []string{"amount", "screenshot", "utr_number"}},
		{"empty file", money.NewTopUp{
			Input:      topup.Input{Amount: "10", UTRNumber: "412345678901"},
			Screenshot: &money.Upload{Body: strings.NewReader(""), Size: 0},
		}, []string{"screenshot"}},
		{"declared too large", money.NewTopUp{
			Input:      topup.Input{Amount: "10", UTRNumber: "412345678901"},
			Screenshot: &money.Upload{Body: strings.NewReader(pngHead), Size: topup.MaxScreenshotBytes + 1},
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
	if _, err := f.panel.CreateTopUp(ctx, blocked, money.NewTopUp{Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}}); !errors.Is(err, user.ErrNotActive) {
		t.Fatalf("blocked user: %v", err)
	}
	if n := len(f.db.TopUps()); n != 0 {
		t.Fatalf("%d requests stored", n)
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
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, money.NewTopUp{
		Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}, Screenshot: &money.Upload{Body: big, Size: -1}})
	if got := validationFields(t, err); len(got["screenshot"]) != 1 {
		t.Fatalf("errors %v", got)
	}
	if n := len(f.db.TopUps()); n != 0 {
		t.Fatalf("%d requests stored", n)
	}
}

func TestCreateTopUpDeletesFileWhenRowFails(t *testing.T) {
	f := newTopUpFixture(t)
	used := topup.Request{UserID: 12, Amount: dec("5"), UTRNumber: "412345678901", Status: topup.StatusApproved}
	f.db.Put(used) // the UTR is taken, by another user's decided request
	var saved string
	f.files.EXPECT().Save(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, name string, r io.Reader) error {
		saved = name
		_, err := io.Copy(io.Discard, r)
		return err
	}).Once()
	f.files.EXPECT().Delete(mock.Anything, mock.AnythingOfType("string")).RunAndReturn(func(_ context.Context, name string) error {
		if name != saved {
			t.Errorf("deleted %q, saved %q", name, saved)
		}
		return nil
	}).Once()
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, money.NewTopUp{
		Input: topup.Input{Amount: "10", UTRNumber: "412345678901"}, Screenshot: &money.Upload{Body: strings.NewReader("%PDF-1.4 x"), Size: 10}})
	if !errors.Is(err, topup.ErrUTRTaken) {
		t.Fatalf("err = %v, want ErrUTRTaken", err)
	}
	if n := len(f.db.TopUps()); n != 1 {
		t.Fatalf("%d requests stored, want only the earlier one", n)
	}
}

func TestApproveTopUpCreditsInTheSameTransaction(t *testing.T) {
	f := newTopUpFixture(t)
	f.pending(5)
	r, err := f.panel.ApproveTopUp(context.Background(), f.admin, 5, " ok ")
	if err != nil || r.Status != topup.StatusApproved {
		t.Fatalf("ApproveTopUp = %+v, %v", r, err)
	}
	if got := f.request(t, 5); got.Status != topup.StatusApproved || got.ApprovedBy == nil || *got.ApprovedBy != 1 ||
		got.ApprovedAt == nil || !got.ApprovedAt.Equal(f.now) || got.AdminRemarks == nil || *got.AdminRemarks != "ok" {
		t.Fatalf("stored %+v", got)
	}
	entries := f.db.Entries()
	if len(entries) != 1 {
		t.Fatalf("ledger %+v", entries)
	}
	if e := entries[0]; e.UserID != 11 || e.Type != ledger.Credit || !e.Amount.Equal(dec("250.50")) || !e.BalanceBefore.Equal(dec("100.00")) ||
		!e.BalanceAfter.Equal(dec("350.50")) || e.ReferenceType != "balance_request" || e.ReferenceID == nil || *e.ReferenceID != 5 ||
		!strings.Contains(e.Description, "412345678905") {
		t.Fatalf("entry %+v", e)
	}
	if u := f.db.User(11); !u.Balance.Equal(dec("350.50")) || !u.TotalSpent.Equal(dec("5.00")) {
		t.Fatalf("owner %s / %s", u.Balance, u.TotalSpent)
	}
	logged := f.db.AuditEntries()
	if len(logged) != 1 || logged[0].Action != audit.BalanceRequestApprove || *logged[0].TargetID != 5 ||
		!strings.Contains(string(logged[0].Before), `"status":"pending"`) || !strings.Contains(string(logged[0].After), `"status":"approved"`) {
		t.Fatalf("audit entries %+v", logged)
	}
}

func TestApproveTopUpRefusals(t *testing.T) {
	ctx := context.Background()
	t.Run("lost the race", func(t *testing.T) {
		f := newTopUpFixture(t)
		r := f.pending(5)
		var once sync.Once
		f.db.OnCall("TopUps.Decide", func() error { // another admin decides between the read and the write
			once.Do(func() {
				other := *r
				other.Status = topup.StatusRejected
				f.db.Put(other)
			})
			return nil
		})
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("err = %v", err)
		}
		if got := f.request(t, 5); got.Status != topup.StatusRejected {
			t.Fatalf("the other decision was overwritten: %+v", got)
		}
		if f.db.Calls("Users.LockByID") != 0 || len(f.db.Entries()) != 0 || !f.db.User(11).Balance.Equal(dec("100.00")) {
			t.Fatal("credited after losing the race")
		}
	})
	t.Run("already decided", func(t *testing.T) {
		f := newTopUpFixture(t)
		r := f.pending(5)
		r.Status = topup.StatusRejected
		f.db.Put(*r)
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("approve: %v", err)
		}
		if _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "again"); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("reject: %v", err)
		}
		if f.db.Calls("TopUps.Decide") != 0 || len(f.db.Entries()) != 0 || len(f.db.AuditEntries()) != 0 {
			t.Fatal("a decided request was decided again")
		}
	})
	t.Run("unknown id", func(t *testing.T) {
		f := newTopUpFixture(t)
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 9, ""); errs.KindOf(err) != errs.NotFound {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not an admin", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.pending(5)
		if _, err := f.panel.ApproveTopUp(ctx, f.owner, 5, ""); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("approve: %v", err)
		}
		if _, err := f.panel.RejectTopUp(ctx, f.owner, 5, "no"); errs.KindOf(err) != errs.Forbidden {
			t.Fatalf("reject: %v", err)
		}
		f.untouched(t, 5)
	})
	t.Run("balance would overflow", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.pending(5)
		rich := *f.owner
		rich.Balance = dec("9999999900.00")
		f.db.Put(rich)
		_, err := f.panel.ApproveTopUp(ctx, f.admin, 5, "")
		if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || e.Code != "balance_too_large" {
			t.Fatalf("err = %v", err)
		}
		if got := f.request(t, 5); got.Status != topup.StatusPending || len(f.db.Entries()) != 0 || !f.db.User(11).Balance.Equal(dec("9999999900.00")) {
			t.Fatalf("not rolled back: %+v", got)
		}
	})
	t.Run("ledger failure is returned", func(t *testing.T) {
		f := newTopUpFixture(t)
		f.pending(5)
		boom := errors.New("disk full")
		f.db.Fail("Ledger.Insert", boom)
		if _, err := f.panel.ApproveTopUp(ctx, f.admin, 5, ""); !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
		f.untouched(t, 5)
	})
}

func TestRejectTopUp(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	f.pending(5)
	if got := validationFields(t, func() error { _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "  "); return err }()); len(got["admin_remarks"]) != 1 {
		t.Fatalf("errors %v", got)
	}
	f.untouched(t, 5)
	r, err := f.panel.RejectTopUp(ctx, f.admin, 5, "no such transfer")
	if err != nil || r.Status != topup.StatusRejected {
		t.Fatalf("RejectTopUp = %+v, %v", r, err)
	}
	if got := f.request(t, 5); got.Status != topup.StatusRejected || got.ApprovedBy == nil || *got.ApprovedBy != 1 ||
		got.AdminRemarks == nil || *got.AdminRemarks != "no such transfer" {
		t.Fatalf("stored %+v", got)
	}
	// No credit: no user lock, no ledger row; the owner has no webhook_url:
	// no outbox row.
	if f.db.Calls("Users.LockByID") != 0 || len(f.db.Entries()) != 0 || !f.db.User(11).Balance.Equal(dec("100.00")) || len(f.db.Events()) != 0 {
		t.Fatal("a rejection credited or wrote an event")
	}
	if logged := f.db.AuditEntries(); len(logged) != 1 || logged[0].Action != audit.BalanceRequestReject {
		t.Fatalf("audit entries %+v", logged)
	}
}

func TestTopUpVisibility(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	other := &user.User{ID: 99, Role: user.RoleReseller, Status: user.StatusActive}
	withShot := f.pending(5)
	name := "01JABCDEFGHJKMNPQRSTVWXYZ0.webp"
	withShot.Screenshot = &name
	f.db.Put(*withShot)
	f.pending(6)

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
	f.pending(5)
	decided := f.pending(6)
	decided.Status = topup.StatusApproved
	f.db.Put(*decided)
	theirs := f.pending(7)
	theirs.UserID = 99
	f.db.Put(*theirs)
	other := uint64(99)
	rows, total, err := f.panel.ListTopUps(ctx, f.owner, topup.Filter{UserID: &other, Status: topup.StatusPending})
	if err != nil || total != 1 || len(rows) != 1 || rows[0].ID != 5 {
		t.Fatalf("owner's list = %+v, %d, %v; want only their own pending request", rows, total, err)
	}
	rows, total, err = f.panel.ListTopUps(ctx, f.admin, topup.Filter{})
	if err != nil || total != 3 || len(rows) != 3 {
		t.Fatalf("admin's list = %+v, %d, %v; want everyone's", rows, total, err)
	}
}

func TestCreateTopUpCapsPendingRequests(t *testing.T) {
	f := newTopUpFixture(t)
	for i := range topup.MaxPending {
		f.db.Put(topup.Request{UserID: 11, Amount: dec("1"), UTRNumber: "5000000000" + string(rune('a'+i)), Status: topup.StatusPending})
	}
	// No file saved (the file mock fails on a call), no row inserted.
	_, err := f.panel.CreateTopUp(context.Background(), f.owner, money.NewTopUp{
		Input:      topup.Input{Amount: "100.00", UTRNumber: "412345678901"},
		Screenshot: &money.Upload{Body: strings.NewReader(pngHead + "rest of the image"), Size: int64(len(pngHead) + 17)},
	})
	if !errors.Is(err, topup.ErrTooManyPending) {
		t.Fatalf("err = %v, want the pending cap", err)
	}
	if n := len(f.db.TopUps()); n != topup.MaxPending {
		t.Fatalf("%d requests stored", n)
	}
}

func TestDecidedTopUpWritesItsEvent(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	hook := "https://merchant.example/hooks"
	f.owner.WebhookURL = &hook
	f.db.Put(*f.owner)
	f.pending(5)
	f.pending(6)

	if _, err := f.panel.RejectTopUp(ctx, f.admin, 5, "no such transfer"); err != nil {
		t.Fatal(err)
	}
	events, ds := f.db.Events(), f.db.Deliveries()
	if len(events) != 1 || events[0].Type != webhook.BalanceRequestRejected || events[0].UserID != 11 ||
		len(ds) != 1 || ds[0].URL != hook || ds[0].EventID != events[0].ID {
		t.Fatalf("events %+v deliveries %+v", events, ds)
	}

	// The outbox refusing the row rolls the decision back with it.
	boom := errors.New("disk full")
	f.db.Fail("Webhooks.Insert", boom)
	if _, err := f.panel.ApproveTopUp(ctx, f.admin, 6, ""); !errors.Is(err, boom) {
		t.Fatalf("approve: %v", err)
	}
	if r := f.request(t, 6); r.Status != topup.StatusPending || len(f.db.Entries()) != 0 || !f.db.User(11).Balance.Equal(dec("100.00")) ||
		len(f.db.Events()) != 1 || len(f.db.AuditEntries()) != 1 {
		t.Fatalf("not rolled back: request %+v, ledger %+v", r, f.db.Entries())
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
