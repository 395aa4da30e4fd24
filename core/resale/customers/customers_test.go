package customers_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
	"paygate/core/resale/customers"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func ptr[T any](v T) *T { return &v }

// mailbox keeps the mail sent.
type mailbox struct {
	mu   sync.Mutex
	sent []panel.Message
}

func (m *mailbox) Send(_ context.Context, msg panel.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
	return nil
}

// reports is a fixed dashboard source.
type reports struct {
	usage   []report.CustomerUsage
	settled decimal.Decimal
}

func (r reports) CustomerUsage(context.Context, uint64, time.Time, time.Time) ([]report.CustomerUsage, error) {
	return r.usage, nil
}
func (r reports) HitCommissions(_ context.Context, ids []uint64) (map[uint64]decimal.Decimal, error) {
	out := map[uint64]decimal.Decimal{}
	for _, id := range ids {
		out[id] = decimal.New(int64(id), -4)
	}
	return out, nil
}
func (r reports) CommissionSettled(context.Context, uint64, time.Time, time.Time) (decimal.Decimal, error) {
	return r.settled, nil
}

// fixture: admin 1, reseller 10 with customers 11 and 12, reseller 20 with
// customer 21, ordinary user 30.
type fixture struct {
	db   *storetest.DB
	c    *customers.Customers
	mail *mailbox
	now  time.Time
	rep  *reports
}

// acct is an active account whose email is confirmed.
func acct(id uint64, role user.Role, parent *uint64, balance string) user.User {
	confirmed := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	return user.User{ID: id, ParentID: parent, Role: role, Status: user.StatusActive, Plan: user.PlanStarter, EmailVerifiedAt: &confirmed,
		Name: "U" + decimal.NewFromInt(int64(id)).String(), Email: "u" + decimal.NewFromInt(int64(id)).String() + "@example.com",
		Phone: "98765432" + decimal.NewFromInt(int64(id)).String(), Balance: dec(balance), TotalSpent: decimal.Zero, HeldAmount: decimal.Zero}
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{db: storetest.New(), mail: &mailbox{}, now: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), rep: &reports{settled: decimal.Zero}}
	f.db.Put(acct(1, user.RoleAdmin, nil, "0"), acct(10, user.RoleReseller, nil, "1000.00"), acct(11, user.RoleUser, ptr(uint64(10)), "50.00"),
		acct(12, user.RoleUser, ptr(uint64(10)), "0"), acct(20, user.RoleReseller, nil, "500.00"), acct(21, user.RoleUser, ptr(uint64(20)), "70.00"),
		acct(30, user.RoleUser, nil, "80.00"))
	st := f.db.Stores()
	f.c = customers.New(customers.Deps{Tx: store.Narrow(f.db, customers.TxStoresOf), Mailer: f.mail, Now: func() time.Time { return f.now },
		Stores: customers.Stores{Users: st.Users, Keys: st.Keys, Hits: st.Hits, Ledger: st.Ledger, Transfers: st.Transfers,
			Resets: st.Resets, Reports: f.rep, Names: f.db.Names()},
		Config: customers.Config{PasswordCost: 4, PublicBaseURL: "https://panel.example"}})
	return f
}

func (f *fixture) user(id uint64) *user.User { u := f.db.User(id); return &u }

func TestCreateCustomer(t *testing.T) {
	f := newFixture(t)
	r := f.user(10)
	c, err := f.c.Create(context.Background(), r, customers.NewCustomer{Profile: user.Profile{Name: " Asha ", Email: "Asha@Example.com", Phone: "9876500001"}})
	if err != nil {
		t.Fatal(err)
	}
	f.c.Wait()
	got := f.db.User(c.ID)
	// Pending, unconfirmed, with no key yet: the invite link activates it
	// (core/accounts.ResetPassword).
	if got.ParentID == nil || *got.ParentID != 10 || got.Role != user.RoleUser || got.Status != user.StatusPending ||
		got.EmailVerifiedAt != nil || got.Email != "asha@example.com" {
		t.Errorf("customer stored as %+v", got)
	}
	if got.APIKey != nil {
		t.Errorf("a pending customer has a key: %v", got.APIKey)
	}
	if len(f.mail.sent) != 1 || !strings.Contains(f.mail.sent[0].Link, "/reset-password?token=pi_") || f.mail.sent[0].To != "asha@example.com" {
		t.Errorf("invite mail: %+v", f.mail.sent)
	}
	entries := f.db.AuditEntries()
	if len(entries) != 1 || entries[0].Action != audit.CustomerCreate || entries[0].ActorID != 10 || *entries[0].TargetID != c.ID {
		t.Errorf("audit: %+v", entries)
	}

	// With a password: the same invite (the password stands only until the
	// customer chooses its own through the link).
	c2, err := f.c.Create(context.Background(), r, customers.NewCustomer{Profile: user.Profile{Name: "Ravi", Email: "ravi@example.com", Phone: "9876500002", Password: "Secret-pass1"}})
	if err != nil {
		t.Fatal(err)
	}
	f.c.Wait()
	if !user.NewPasswords(4).Check(ptr(f.db.User(c2.ID)), "Secret-pass1") {
		t.Error("password not kept")
	}
	if len(f.mail.sent) != 2 || !strings.Contains(f.mail.sent[1].Link, "/reset-password?token=pi_") || f.db.User(c2.ID).Status != user.StatusPending {
		t.Errorf("invite mail: %+v", f.mail.sent[1:])
	}
	// Until it confirms, the reseller neither activates nor blocks it, nor
	// moves money either way.
	for _, st := range []user.Status{user.StatusActive, user.StatusBlocked} {
		if _, err := f.c.SetStatus(context.Background(), r, c.ID, st); !errors.Is(err, customers.ErrNotConfirmed) {
			t.Errorf("set %s on an unconfirmed customer: %v", st, err)
		}
	}
	for _, dir := range []string{"to_customer", "from_customer"} {
		if _, err := f.c.Transfer(context.Background(), r, c.ID, transfer.Input{Amount: "1.00", Direction: dir}, ""); !errors.Is(err, panel.ErrCustomerNotConfirmed) {
			t.Errorf("%s with an unconfirmed customer: %v", dir, err)
		}
	}
	if got := f.db.User(c.ID); got.Status != user.StatusPending || len(f.db.Transfers()) != 0 {
		t.Errorf("after the refusals: %s, %d transfers", got.Status, len(f.db.Transfers()))
	}

	for _, tc := range []struct {
		name  string
		actor *user.User
		in    user.Profile
		kind  errs.Kind
		field string
	}{
		{"a user", f.user(30), user.Profile{Name: "X", Email: "x@example.com", Phone: "9876500003"}, errs.Forbidden, ""},
		{"an admin", f.user(1), user.Profile{Name: "X", Email: "x@example.com", Phone: "9876500003"}, errs.Forbidden, ""},
		{"a customer", f.user(11), user.Profile{Name: "X", Email: "x@example.com", Phone: "9876500003"}, errs.Forbidden, ""},
		{"email taken", r, user.Profile{Name: "X", Email: "u30@example.com", Phone: "9876500003"}, errs.Invalid, "email"},
		{"bad phone", r, user.Profile{Name: "X", Email: "x@example.com", Phone: "12"}, errs.Invalid, "phone"},
		{"short password", r, user.Profile{Name: "X", Email: "x@example.com", Phone: "9876500003", Password: "x"}, errs.Invalid, "password"},
	} {
		_, err := f.c.Create(context.Background(), tc.actor, customers.NewCustomer{Profile: tc.in})
		if errs.KindOf(err) != tc.kind {
			t.Errorf("%s: err %v, want kind %v", tc.name, err, tc.kind)
			continue
		}
		if tc.field != "" {
			if e, ok := errs.As(err); !ok || len(e.Fields[tc.field]) == 0 {
				t.Errorf("%s: no field error on %s: %v", tc.name, tc.field, err)
			}
		}
	}
}

func TestForeignIDsAreNotFound(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := f.user(10)
	// Another reseller's customer, an ordinary user, the other reseller,
	// an admin, the reseller itself, nobody.
	for _, id := range []uint64{21, 30, 20, 1, 10, 999} {
		checks := map[string]error{}
		_, checks["get"] = f.c.Get(ctx, r, id)
		_, checks["keys"] = f.c.Keys(ctx, r, id)
		_, _, checks["hits"] = f.c.Hits(ctx, r, id, hitlog.Filter{})
		_, _, checks["transactions"] = f.c.Transactions(ctx, r, id, ledger.Filter{})
		_, _, checks["transfers"] = f.c.Transfers(ctx, r, id, 1, 20)
		_, checks["block"] = f.c.SetStatus(ctx, r, id, user.StatusBlocked)
		_, checks["activate"] = f.c.SetStatus(ctx, r, id, user.StatusActive)
		_, checks["transfer"] = f.c.Transfer(ctx, r, id, transfer.Input{Amount: "1.00", Direction: "to_customer"}, "")
		for what, err := range checks {
			if !errors.Is(err, customers.ErrNotFound) {
				t.Errorf("%s of user %d: %v, want customer_not_found", what, id, err)
			}
		}
	}
	if u := f.db.User(21); u.Status != user.StatusActive || !u.Balance.Equal(dec("70.00")) {
		t.Errorf("foreign customer changed: %+v", u)
	}
	// Others are refused before any id is read.
	for _, a := range []*user.User{f.user(1), f.user(11), f.user(30)} {
		if _, err := f.c.Get(ctx, a, 11); !errors.Is(err, errs.ErrForbidden) {
			t.Errorf("%s reads a customer: %v", a.Role, err)
		}
	}
}

func TestListAndStatus(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := f.user(10)
	list, n, err := f.c.List(ctx, r, user.Filter{Role: user.RoleAdmin})
	if err != nil || n != 2 || len(list) != 2 || list[0].ID != 12 || list[1].ID != 11 {
		t.Fatalf("list: %v %d %+v", err, n, list)
	}
	if _, err := f.c.SetStatus(ctx, r, 11, user.StatusBlocked); err != nil {
		t.Fatal(err)
	}
	list, n, _ = f.c.List(ctx, r, user.Filter{Status: user.StatusBlocked})
	if n != 1 || list[0].ID != 11 {
		t.Errorf("blocked list: %d %+v", n, list)
	}
	list, n, _ = f.c.List(ctx, r, user.Filter{Q: "u12@"})
	if n != 1 || list[0].ID != 12 {
		t.Errorf("search: %d %+v", n, list)
	}
	if _, err := f.c.SetStatus(ctx, r, 11, user.StatusActive); err != nil || f.db.User(11).Status != user.StatusActive {
		t.Errorf("activate: %v %s", err, f.db.User(11).Status)
	}
	var actions []string
	for _, e := range f.db.AuditEntries() {
		actions = append(actions, e.Action)
	}
	if strings.Join(actions, ",") != "customer.block,customer.activate" {
		t.Errorf("audit: %v", actions)
	}
	f.db.Put(apikey.Key{UserID: 12, Key: "pk_12", SecretHash: "h", Status: apikey.StatusActive})
	keys, err := f.c.Keys(ctx, r, 12)
	if err != nil || len(keys) != 1 || keys[0].Key != "pk_12" {
		t.Errorf("keys: %v %+v", err, keys)
	}
}

func TestTransfer(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		customer               uint64
		amount, dir            string
		held                   string // the paying side's held money
		funded                 []transfer.Transfer
		wantErr                error
		wantReseller, wantCust string
	}{
		{"to customer", 11, "100.00", "to_customer", "0", nil, nil, "900.00", "150.00"},
		{"from customer", 11, "50.00", "from_customer", "0", in50, nil, "1050.00", "0.00"},
		{"all of it", 11, "1000.00", "to_customer", "0", nil, nil, "0.00", "1050.00"},
		{"reseller short", 11, "1000.01", "to_customer", "0", nil, ledger.ErrInsufficientBalance, "1000.00", "50.00"},
		{"customer short", 11, "50.01", "from_customer", "0", in80, ledger.ErrInsufficientBalance, "1000.00", "50.00"},
		{"held money is not available", 11, "950.01", "to_customer", "50.00", nil, ledger.ErrInsufficientBalance, "1000.00", "50.00"},
		{"empty customer", 12, "0.01", "from_customer", "0", nil, transfer.ErrBeyondFunded, "1000.00", "50.00"},
		// What the reseller put in and has not taken back bounds it, never
		// the customer's own money (its 50.00 here).
		{"nothing funded", 11, "0.01", "from_customer", "0", nil, transfer.ErrBeyondFunded, "1000.00", "50.00"},
		{"beyond funded", 11, "20.01", "from_customer", "0", in20, transfer.ErrBeyondFunded, "1000.00", "50.00"},
		{"up to funded", 11, "20.00", "from_customer", "0", in20, nil, "1020.00", "30.00"},
		{"funded less taken back", 11, "15.01", "from_customer", "0", in20back5, transfer.ErrBeyondFunded, "1000.00", "50.00"},
		{"a balance request's approval is the customer's", 11, "0.01", "from_customer", "0", approved, transfer.ErrBeyondFunded, "1000.00", "50.00"},
		{"another reseller's funding counts for nothing", 11, "0.01", "from_customer", "0", otherReseller, transfer.ErrBeyondFunded, "1000.00", "50.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			for _, tr := range tc.funded {
				if err := f.db.Stores().Transfers.Insert(context.Background(), &tr); err != nil {
					t.Fatal(err)
				}
			}
			planted := len(tc.funded)
			if tc.held != "0" {
				payer := f.db.User(10)
				if tc.dir == "from_customer" {
					payer = f.db.User(tc.customer)
				}
				payer.HeldAmount = dec(tc.held)
				f.db.Put(payer)
			}
			out, err := f.c.Transfer(context.Background(), f.user(10), tc.customer, transfer.Input{Amount: tc.amount, Direction: tc.dir}, "")
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if r := f.db.User(10).Balance; !r.Equal(dec(tc.wantReseller)) {
				t.Errorf("reseller balance %s, want %s", r, tc.wantReseller)
			}
			if c := f.db.User(11).Balance; !c.Equal(dec(tc.wantCust)) {
				t.Errorf("customer 11 balance %s, want %s", c, tc.wantCust)
			}
			if tc.wantErr != nil {
				if len(f.db.Entries()) != 0 || len(f.db.Transfers()) != planted || len(f.db.AuditEntries()) != 0 {
					t.Errorf("a refused transfer wrote rows")
				}
				return
			}
			if !out.Reseller.Balance.Equal(dec(tc.wantReseller)) || !out.Customer.Balance.Equal(dec(tc.wantCust)) {
				t.Errorf("answer balances %s / %s", out.Reseller.Balance, out.Customer.Balance)
			}
			es := f.db.Entries()
			if len(es) != 2 {
				t.Fatalf("entries: %+v", es)
			}
			sum := decimal.Zero
			for _, e := range es {
				if e.ReferenceType != ledger.RefTransfer || e.ReferenceID == nil || *e.ReferenceID != out.Transfer.ID || !e.Amount.Equal(dec(tc.amount)) {
					t.Errorf("entry %+v", e)
				}
				if e.Type == ledger.Debit {
					sum = sum.Sub(e.Amount)
				} else {
					sum = sum.Add(e.Amount)
				}
			}
			if !sum.IsZero() {
				t.Errorf("entries do not balance: %s", sum)
			}
		})
	}
}

// Transfers planted as history (their ledger entries are not the point).
var (
	in50          = []transfer.Transfer{{ResellerID: 10, CustomerID: 11, Direction: transfer.ToCustomer, Amount: dec("50.00")}}
	in80          = []transfer.Transfer{{ResellerID: 10, CustomerID: 11, Direction: transfer.ToCustomer, Amount: dec("80.00")}}
	in20          = []transfer.Transfer{{ResellerID: 10, CustomerID: 11, Direction: transfer.ToCustomer, Amount: dec("20.00")}}
	in20back5     = append(slices.Clone(in20), transfer.Transfer{ResellerID: 10, CustomerID: 11, Direction: transfer.FromCustomer, Amount: dec("5.00")})
	approved      = []transfer.Transfer{{ResellerID: 10, CustomerID: 11, Direction: transfer.ToCustomer, Amount: dec("40.00"), BalanceRequestID: ptr(uint64(7))}}
	otherReseller = []transfer.Transfer{{ResellerID: 20, CustomerID: 11, Direction: transfer.ToCustomer, Amount: dec("40.00")}}
)

func TestTransferInput(t *testing.T) {
	f := newFixture(t)
	for _, in := range []transfer.Input{{Amount: "0", Direction: "to_customer"}, {Amount: "-1", Direction: "to_customer"},
		{Amount: "1.001", Direction: "to_customer"}, {Amount: "1", Direction: "sideways"}, {Amount: "abc", Direction: ""}} {
		if _, err := f.c.Transfer(context.Background(), f.user(10), 11, in, ""); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%+v: %v, want 422", in, err)
		}
	}
	if _, err := f.c.Transfer(context.Background(), f.user(10), 11, transfer.Input{Amount: "1", Direction: "to_customer"}, strings.Repeat("k", 256)); errs.KindOf(err) != errs.Invalid {
		t.Errorf("long key: %v", err)
	}
}

func TestTransferIdempotency(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := f.user(10)
	in := transfer.Input{Amount: "10.00", Direction: "to_customer"}
	first, err := f.c.Transfer(ctx, r, 11, in, "key-1")
	if err != nil || first.Replayed {
		t.Fatal(err, first)
	}
	again, err := f.c.Transfer(ctx, r, 11, transfer.Input{Amount: "10", Direction: "to_customer"}, "key-1")
	if err != nil || !again.Replayed || again.Transfer.ID != first.Transfer.ID {
		t.Fatalf("replay: %v %+v", err, again)
	}
	if _, err := f.c.Transfer(ctx, r, 11, transfer.Input{Amount: "11.00", Direction: "to_customer"}, "key-1"); !errors.Is(err, transfer.ErrKeyReused) {
		t.Errorf("other amount, same key: %v", err)
	}
	if _, err := f.c.Transfer(ctx, r, 12, in, "key-1"); !errors.Is(err, transfer.ErrKeyReused) {
		t.Errorf("other customer, same key: %v", err)
	}
	// Keys are per reseller.
	if _, err := f.c.Transfer(ctx, f.user(20), 21, in, "key-1"); err != nil {
		t.Errorf("another reseller's key: %v", err)
	}
	if n := len(f.db.Transfers()); n != 2 {
		t.Errorf("%d transfers, want 2", n)
	}
	if b := f.db.User(11).Balance; !b.Equal(dec("60.00")) {
		t.Errorf("customer balance %s", b)
	}
	list, n, err := f.c.Transfers(ctx, r, 11, 1, 20)
	if err != nil || n != 1 || list[0].ID != first.Transfer.ID {
		t.Errorf("transfers list: %v %d %+v", err, n, list)
	}
}

func TestDashboard(t *testing.T) {
	f := newFixture(t)
	f.rep.usage = []report.CustomerUsage{
		{CustomerID: 11, Calls: 3, Spend: dec("0.75"), Cost: dec("0.60"), Commission: dec("0.15")},
		{CustomerID: 12, Calls: 1, Spend: dec("0.30"), Cost: dec("0.20"), Commission: dec("0.10")},
	}
	f.rep.settled = dec("0.20")
	from := f.now.Add(-24 * time.Hour)
	d, err := f.c.Dashboard(context.Background(), f.user(10), from, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if d.Customers != 2 || d.Calls != 4 || !d.Spend.Equal(dec("1.05")) || !d.Cost.Equal(dec("0.80")) ||
		!d.CommissionAccrued.Equal(dec("0.25")) || !d.CommissionSettled.Equal(dec("0.20")) || len(d.Lines) != 2 || d.Lines[0].Name != "U11" {
		t.Errorf("dashboard %+v", d)
	}
	if _, err := f.c.Dashboard(context.Background(), f.user(30), from, f.now); !errors.Is(err, errs.ErrForbidden) {
		t.Errorf("a user's dashboard: %v", err)
	}
	if _, err := f.c.Dashboard(context.Background(), f.user(10), f.now, from); errs.KindOf(err) != errs.Invalid {
		t.Errorf("reversed range: %v", err)
	}
}

func TestCustomerHits(t *testing.T) {
	f := newFixture(t)
	resp := `{"ok":true}`
	f.db.Put(hitlog.Hit{ID: 7, UserID: 11, ServiceID: 1, APIKeyID: 1, RequestID: "r7", RequestPayload: `{"upi":"a@b"}`, ResponsePayload: &resp,
		ChargeAmount: dec("0.3000"), Status: hitlog.StatusSuccess, CreatedAt: f.now},
		hitlog.Hit{ID: 8, UserID: 21, ServiceID: 1, APIKeyID: 2, RequestID: "r8", ChargeAmount: dec("0.3000"), Status: hitlog.StatusSuccess, CreatedAt: f.now},
		// A row naming another's key and a deleted service: neither is named.
		hitlog.Hit{ID: 6, UserID: 11, ServiceID: 9, APIKeyID: 2, RequestID: "r6", ChargeAmount: dec("0.3000"), Status: hitlog.StatusSuccess, CreatedAt: f.now.Add(-time.Minute)},
		apikey.Key{ID: 1, UserID: 11, Name: "Billing"}, apikey.Key{ID: 2, UserID: 21, Name: "Other reseller's"},
		catalog.Service{ID: 1, Name: "UPI verification", Slug: "upi-verify"})
	hits, n, err := f.c.Hits(context.Background(), f.user(10), 11, hitlog.Filter{})
	if err != nil || n != 2 || len(hits) != 2 {
		t.Fatalf("hits: %v %d %+v", err, n, hits)
	}
	if h := hits[0]; h.ID != 7 || h.RequestPayload != "" || h.ResponsePayload != nil || !h.Commission.Equal(dec("0.0007")) {
		t.Errorf("hit %+v", h)
	}
	if h := hits[0]; h.KeyName != "Billing" || h.ServiceName != "UPI verification" {
		t.Errorf("hit 7 named key %q, service %q; want Billing, UPI verification", h.KeyName, h.ServiceName)
	}
	if h := hits[1]; h.ID != 6 || h.KeyName != "" || h.ServiceName != "" {
		t.Errorf("hit 6 named key %q, service %q; want neither", h.KeyName, h.ServiceName)
	}
}
