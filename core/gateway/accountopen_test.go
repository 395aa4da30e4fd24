package gateway_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/events/webhook"
	"paygate/core/gateway"
	"paygate/core/gateway/accountopen"
	accountopenmocks "paygate/core/gateway/accountopen/mocks"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

const (
	fullAadhaar, maskedAadhaar = "234123412346", "XXXXXXXX2346"
	fullPAN, maskedPAN         = "ABCPE1234F", "XXXXXX234F"
	kycURL                     = "https://kyc.example/aco"
)

type openFixture struct {
	*fixture
	opener *accountopenmocks.MockProvider
}

// newOpenFixture is user 11 (balance 10.00, a webhook URL) with key 3 and
// the account-open service at 0.00, on a mocked provider.
func newOpenFixture(t *testing.T) *openFixture {
	f := &openFixture{
		fixture: &fixture{db: storetest.New(), now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC)},
		opener:  accountopenmocks.NewMockProvider(t),
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app, f.meter = wire(t, f.db, gateway.Deps{Now: func() time.Time { return f.now },
		Opener: f.opener}, loc)
	var k string
	k, f.secret = apikey.NewCredentials()
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	hook := "https://shop.example/hooks"
	f.db.Put(*f.key, user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		Balance: dec("10.00"), WebhookURL: &hook},
		catalog.Service{ID: 24, Slug: gateway.SlugAccountOpen, Status: catalog.StatusActive, Builtin: true},
		pricing.Price{ServiceID: 24, UserPrice: dec("0.00"), Status: pricing.StatusActive})
	return f
}

func application(ref string) accountopen.Request {
	return accountopen.Request{Name: "Asha Rao", DOB: "1990-05-17", PAN: strings.ToLower(fullPAN), Aadhaar: fullAadhaar,
		Mobile: "9876543210", Email: "asha@example.com", Address: "12 MG Road, Bengaluru", Product: "savings", ReferenceID: ref}
}

func (f *openFixture) open(requestID string, r accountopen.Request) (*gateway.AccountOpenResult, error) {
	return f.app.OpenAccount(context.Background(), gateway.AccountOpenInput{RequestID: requestID,
		Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IP: "203.0.113.9", Request: r})
}

func (f *openFixture) opening(t *testing.T, id uint64) accountopen.Opening {
	t.Helper()
	for _, o := range f.db.Openings() {
		if o.ID == id {
			return o
		}
	}
	t.Fatalf("no opening %d", id)
	return accountopen.Opening{}
}

func (f *openFixture) hit(t *testing.T, requestID string) hitlog.Hit {
	t.Helper()
	for _, h := range f.db.Hits() {
		if h.RequestID == requestID {
			return h
		}
	}
	t.Fatalf("no hit of %s", requestID)
	return hitlog.Hit{}
}

// noFullIdentifiers fails the test when text holds the full PAN or Aadhaar number.
func noFullIdentifiers(t *testing.T, where, text string) {
	t.Helper()
	if strings.Contains(text, fullAadhaar) || strings.Contains(strings.ToUpper(text), fullPAN) {
		t.Errorf("%s holds a full identifier: %s", where, text)
	}
}

// kycPendingRow is user 11's opening id, kyc_pending (or initiated), due at created.
func kycPendingRow(id uint64, status accountopen.Status, created time.Time, attempts int) accountopen.Opening {
	o := accountopen.Opening{ID: id, PublicID: "aco_" + strings.Repeat("0", 25) + string(rune('0'+id)), UserID: 11, APIKeyID: 3,
		ReferenceID: "ao", Product: "savings", Status: status, CreatedAt: created, UpdatedAt: created, NextCheckAt: created, Attempts: attempts,
		Applicant: accountopen.Applicant{Name: "Asha Rao", DOB: "1990-05-17", PAN: maskedPAN, Aadhaar: maskedAadhaar,
			Mobile: "9876543210", Email: "asha@example.com", Address: "12 MG Road"}}
	if status == accountopen.StatusKYCPending {
		u := kycURL
		o.KYCURL = &u
	}
	return o
}

// TestOpenAccountSendsIdentifiersOnceAndKeepsMasks: the provider's Submit
// gets the full PAN and Aadhaar number (under the provider timeout); the
// row, the hit log and the answer hold their masks only; the kyc_pending
// answer schedules the first check 5 s on.
func TestOpenAccountSendsIdentifiersOnceAndKeepsMasks(t *testing.T) {
	f := newOpenFixture(t)
	f.opener.EXPECT().Submit(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, o accountopen.Opening, kyc accountopen.KYC) (accountopen.Outcome, error) {
			providerDeadline(t, ctx)
			if kyc.PAN != fullPAN || kyc.Aadhaar != fullAadhaar || o.ID == 0 || o.Applicant.Aadhaar != maskedAadhaar {
				t.Errorf("Submit got %+v %+v", o, kyc)
			}
			// As created, before the answer: due only after the grace.
			if row := f.opening(t, o.ID); row.Status != accountopen.StatusInitiated || !row.NextCheckAt.Equal(f.now.Add(35*time.Second)) {
				t.Errorf("created %+v", row)
			}
			return accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: kycURL}, nil
		}).Once()

	res, err := f.open("req_A", application("ao-1"))
	if err != nil {
		t.Fatal(err)
	}
	o := res.Opening
	if o.Status != accountopen.StatusKYCPending || o.KYCURL == nil || *o.KYCURL != kycURL || !strings.HasPrefix(o.PublicID, "aco_") ||
		!res.Charged.IsZero() || res.Replayed || !o.Livemode {
		t.Fatalf("%+v", res)
	}
	row := f.opening(t, o.ID)
	if row.Applicant.PAN != maskedPAN || row.Applicant.Aadhaar != maskedAadhaar || row.UserID != 11 || row.APIKeyID != 3 ||
		!row.NextCheckAt.Equal(f.now.Add(accountopen.FirstCheck)) || row.Status != accountopen.StatusKYCPending {
		t.Fatalf("row %+v", row)
	}
	h := f.hit(t, "req_A")
	if h.Status != hitlog.StatusSuccess || !strings.Contains(h.RequestPayload, maskedAadhaar) || !strings.Contains(h.RequestPayload, maskedPAN) {
		t.Fatalf("hit %+v", h)
	}
	noFullIdentifiers(t, "hit request", h.RequestPayload)
	noFullIdentifiers(t, "hit response", *h.ResponsePayload)
	if len(f.db.Events()) != 0 {
		t.Fatalf("events %+v before an end state", f.db.Events())
	}
}

// TestOpenAccountReplayAndReuse: the same reference and request answer
// the stored opening, unbilled and without asking the provider again
// (Submit is expected once); another request with it is 409.
func TestOpenAccountReplayAndReuse(t *testing.T) {
	f := newOpenFixture(t)
	f.opener.EXPECT().Submit(mock.Anything, mock.Anything, mock.Anything).
		Return(accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: kycURL}, nil).Once()
	first, err := f.open("req_1", application("ao-1"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.open("req_2", application("ao-1"))
	if err != nil || !again.Replayed || again.Opening.ID != first.Opening.ID || again.Opening.PublicID != first.Opening.PublicID {
		t.Fatalf("replay %+v %v", again, err)
	}
	if h := f.hit(t, "req_2"); h.Status != hitlog.StatusSuccess || !h.ChargeAmount.IsZero() {
		t.Fatalf("replay hit %+v", h)
	}
	other := application("ao-1")
	other.Address = "elsewhere"
	_, err = f.open("req_3", other)
	if !errors.Is(err, accountopen.ErrReferenceReused) || errs.KindOf(err) != errs.Conflict {
		t.Fatalf("reuse: %v", err)
	}
	if n := len(f.db.Openings()); n != 1 {
		t.Fatalf("%d openings", n)
	}
}

// TestOpenAccountInvalidIsLoggedMasked: a 422 never reaches the provider
// (the mock fails on any call), and its hit keeps the masks only.
func TestOpenAccountInvalidIsLoggedMasked(t *testing.T) {
	f := newOpenFixture(t)
	r := application("ao-1")
	r.DOB = "2015-01-01"
	_, err := f.open("req_X", r)
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || len(e.Fields["dob"]) != 1 || len(e.Fields) != 1 {
		t.Fatalf("err %v", err)
	}
	h := f.hit(t, "req_X")
	if h.Status != hitlog.StatusFailed || !strings.Contains(h.RequestPayload, maskedAadhaar) {
		t.Fatalf("hit %+v", h)
	}
	noFullIdentifiers(t, "hit", h.RequestPayload)
	if len(f.db.Openings()) != 0 {
		t.Fatal("an invalid application was stored")
	}
}

// TestOpenAccountWithoutAnswerStaysInitiated: no answer from Submit leaves
// the opening initiated, due after the grace; the call still succeeds.
func TestOpenAccountWithoutAnswerStaysInitiated(t *testing.T) {
	f := newOpenFixture(t)
	f.opener.EXPECT().Submit(mock.Anything, mock.Anything, mock.Anything).Return(accountopen.Outcome{}, context.DeadlineExceeded).Once()
	res, err := f.open("req_A", application("ao-1"))
	if err != nil || res.Opening.Status != accountopen.StatusInitiated || res.Opening.KYCURL != nil {
		t.Fatalf("%+v %v", res, err)
	}
	if row := f.opening(t, res.Opening.ID); row.Status != accountopen.StatusInitiated || !row.NextCheckAt.Equal(f.now.Add(35*time.Second)) {
		t.Fatalf("row %+v", row)
	}
}

// TestOpenAccountScrubsEchoedIdentifiers: a provider that rejects at once
// with the Aadhaar number in its reason leaves only the mask, in the row
// and in the event.
func TestOpenAccountScrubsEchoedIdentifiers(t *testing.T) {
	f := newOpenFixture(t)
	f.opener.EXPECT().Submit(mock.Anything, mock.Anything, mock.Anything).
		Return(accountopen.Outcome{Status: accountopen.StatusRejected, Reason: "Aadhaar " + fullAadhaar + " is not linked to PAN " + fullPAN}, nil).Once()
	res, err := f.open("req_A", application("ao-1"))
	if err != nil || res.Opening.Status != accountopen.StatusRejected {
		t.Fatalf("%+v %v", res, err)
	}
	row := f.opening(t, res.Opening.ID)
	if row.RejectReason == nil || *row.RejectReason != "Aadhaar "+maskedAadhaar+" is not linked to PAN "+maskedPAN {
		t.Fatalf("reason %v", row.RejectReason)
	}
	es := f.db.Events()
	if len(es) != 1 || es[0].Type != webhook.AccountOpeningRejected {
		t.Fatalf("events %+v", es)
	}
	noFullIdentifiers(t, "event", string(es[0].Payload))
}

// TestCheckAccountOpeningsResubmitsWithoutIdentifiers: an initiated
// opening (its Submit never answered) is submitted again with an empty
// KYC, never checked (the mock fails on Check).
func TestCheckAccountOpeningsResubmitsWithoutIdentifiers(t *testing.T) {
	f := newOpenFixture(t)
	f.db.Put(kycPendingRow(7, accountopen.StatusInitiated, f.now.Add(-time.Minute), 0))
	f.opener.EXPECT().Submit(mock.Anything, mock.MatchedBy(func(o accountopen.Opening) bool { return o.ID == 7 }), accountopen.KYC{}).
		RunAndReturn(func(ctx context.Context, _ accountopen.Opening, _ accountopen.KYC) (accountopen.Outcome, error) {
			providerDeadline(t, ctx)
			if row := f.opening(t, 7); row.Attempts != 1 {
				t.Errorf("submitted before the claim: %+v", row)
			}
			return accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: kycURL}, nil
		}).Once()
	if n, err := f.app.CheckAccountOpenings(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if row := f.opening(t, 7); row.Status != accountopen.StatusKYCPending || *row.KYCURL != kycURL || row.Attempts != 1 ||
		!row.NextCheckAt.Equal(f.now.Add(accountopen.FirstCheck)) {
		t.Fatalf("row %+v", row)
	}
}

// TestCheckAccountOpeningsOpensAndRejects: kyc_pending openings are
// checked; the end states are written with their event (masked
// identifiers, livemode) in one transaction, and counted.
func TestCheckAccountOpeningsOpensAndRejects(t *testing.T) {
	f := newOpenFixture(t)
	live := kycPendingRow(1, accountopen.StatusKYCPending, f.now.Add(-time.Minute), 0)
	live.Livemode = true // the event follows the row
	f.db.Put(live, kycPendingRow(2, accountopen.StatusKYCPending, f.now.Add(-time.Minute), 0))
	f.opener.EXPECT().Check(mock.Anything, mock.MatchedBy(func(o accountopen.Opening) bool { return o.ID == 1 })).
		Return(accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: "50100012345678", IFSC: "SBOX0000001"}, nil).Once()
	f.opener.EXPECT().Check(mock.Anything, mock.MatchedBy(func(o accountopen.Opening) bool { return o.ID == 2 })).
		Return(accountopen.Outcome{Status: accountopen.StatusRejected, Reason: "Video KYC failed"}, nil).Once()
	if n, err := f.app.CheckAccountOpenings(context.Background(), 100); n != 2 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if o := f.opening(t, 1); o.Status != accountopen.StatusOpened || *o.AccountNumber != "XXXXXXXXXX5678" || *o.IFSC != "SBOX0000001" || o.KYCURL != nil {
		t.Fatalf("opened %+v", o)
	}
	if o := f.opening(t, 2); o.Status != accountopen.StatusRejected || *o.RejectReason != "Video KYC failed" {
		t.Fatalf("rejected %+v", o)
	}
	es := f.db.Events()
	if len(es) != 2 || es[0].Type != webhook.AccountOpeningOpened || es[1].Type != webhook.AccountOpeningRejected {
		t.Fatalf("events %+v", es)
	}
	p := string(es[0].Payload)
	for _, want := range []string{`"livemode":true`, maskedAadhaar, maskedPAN, `"account_number":"XXXXXXXXXX5678"`, `"opening_id":"aco_`} {
		if !strings.Contains(p, want) {
			t.Errorf("event lacks %s: %s", want, p)
		}
	}
	if !strings.Contains(string(es[1].Payload), `"livemode":false`) {
		t.Errorf("sandbox event: %s", es[1].Payload)
	}
	if strings.Contains(p, "50100012345678") {
		t.Errorf("event holds the full account number: %s", p)
	}
	// Nothing is due any more: the mock fails on another call.
	if n, err := f.app.CheckAccountOpenings(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("second round n %d err %v", n, err)
	}
}

// TestCheckAccountOpeningsOneBadRowDoesNotStopTheRound: no answer on the
// first row (claimed with its backoff), a store error claiming the second
// and a bad answer on the third do not keep the fourth from opening; the
// errors are reported after the round.
func TestCheckAccountOpeningsOneBadRowDoesNotStopTheRound(t *testing.T) {
	f := newOpenFixture(t)
	created := f.now.Add(-time.Hour)
	f.db.Put(kycPendingRow(1, accountopen.StatusKYCPending, created, 2), kycPendingRow(2, accountopen.StatusKYCPending, created, 0),
		kycPendingRow(3, accountopen.StatusKYCPending, created, 0), kycPendingRow(4, accountopen.StatusKYCPending, created, 0))
	dbDown := errors.New("db down")
	f.db.Fail("Openings.Claim", nil, dbDown, nil, nil)
	byID := func(id uint64) any { return mock.MatchedBy(func(o accountopen.Opening) bool { return o.ID == id }) }
	f.opener.EXPECT().Check(mock.Anything, byID(1)).Return(accountopen.Outcome{}, context.DeadlineExceeded).Once()
	f.opener.EXPECT().Check(mock.Anything, byID(3)).Return(accountopen.Outcome{Status: accountopen.StatusOpened}, nil).Once()
	f.opener.EXPECT().Check(mock.Anything, byID(4)).
		Return(accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: "50100012345678", IFSC: "SBOX0000001"}, nil).Once()
	n, err := f.app.CheckAccountOpenings(context.Background(), 100)
	if n != 1 || !errors.Is(err, dbDown) || !errors.Is(err, accountopen.ErrBadOutcome) {
		t.Fatalf("n %d err %v", n, err)
	}
	o1, o2, o3, o4 := f.opening(t, 1), f.opening(t, 2), f.opening(t, 3), f.opening(t, 4)
	if o1.Status != accountopen.StatusKYCPending || o1.Attempts != 3 || !o1.NextCheckAt.Equal(f.now.Add(20*time.Second)) {
		t.Fatalf("no answer: %+v", o1)
	}
	if o2.Attempts != 0 || o3.Status != accountopen.StatusKYCPending || o4.Status != accountopen.StatusOpened {
		t.Fatalf("rows %+v %+v %+v", o2, o3, o4)
	}
}

// TestCheckAccountOpeningsLostClaimAsksNobody: another worker claimed the
// row first, so this one neither submits nor checks it.
func TestCheckAccountOpeningsLostClaimAsksNobody(t *testing.T) {
	f := newOpenFixture(t)
	f.db.Put(kycPendingRow(7, accountopen.StatusKYCPending, f.now.Add(-time.Minute), 0))
	f.db.OnCall("Openings.Claim", func() error {
		if row := f.opening(t, 7); row.Attempts == 0 { // the other worker's claim lands first
			f.db.Put(row.Claim(f.now))
		}
		return nil
	})
	if n, err := f.app.CheckAccountOpenings(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if row := f.opening(t, 7); row.Attempts != 1 || row.Status != accountopen.StatusKYCPending {
		t.Fatalf("row %+v", row)
	}
}

// TestAccountOpeningStatusAndList: the status is the key owner's only;
// lists are the caller's own, an admin's everyone's.
func TestAccountOpeningStatusAndList(t *testing.T) {
	f := newOpenFixture(t)
	mine := kycPendingRow(1, accountopen.StatusKYCPending, f.now, 0)
	theirs := kycPendingRow(2, accountopen.StatusKYCPending, f.now, 0)
	theirs.UserID, theirs.ReferenceID = 12, "theirs"
	f.db.Put(mine, theirs)
	caller := gateway.KeyCaller{Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}}
	if o, err := f.app.AccountOpeningStatus(context.Background(), caller, "ao"); err != nil || o.ID != 1 {
		t.Fatalf("own: %+v %v", o, err)
	}
	if _, err := f.app.AccountOpeningStatus(context.Background(), caller, "theirs"); !errors.Is(err, accountopen.ErrNotFound) {
		t.Fatalf("another's: %v", err)
	}
	owner := f.stored()
	if rows, total, err := f.app.ListAccountOpenings(context.Background(), &owner, accountopen.Filter{}); err != nil || total != 1 || rows[0].ID != 1 {
		t.Fatalf("own list %+v %d %v", rows, total, err)
	}
	other := uint64(12)
	if rows, total, _ := f.app.ListAccountOpenings(context.Background(), &owner, accountopen.Filter{UserID: &other}); total != 1 || rows[0].ID != 1 {
		t.Fatalf("a user asking for another's list: %+v", rows)
	}
	admin := user.User{ID: 1, Role: user.RoleAdmin}
	if _, total, _ := f.app.ListAccountOpenings(context.Background(), &admin, accountopen.Filter{}); total != 2 {
		t.Fatalf("admin total %d", total)
	}
	if rows, total, _ := f.app.ListAccountOpenings(context.Background(), &admin, accountopen.Filter{UserID: &other}); total != 1 || rows[0].ID != 2 {
		t.Fatalf("admin filtered %+v", rows)
	}
}
