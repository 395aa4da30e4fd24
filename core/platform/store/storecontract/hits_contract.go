package storecontract

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// hitsContract: a hit is settled once (of several settlements one moves
// it), the recovery finds pending hits oldest first, the list is newest
// first (created_at, then id) with its filters, pages and count, the export
// (ForEach) visits the list's order across its keyset pages with payloads
// cut, and ForEachByUser visits by id without payloads.
func hitsContract(t *testing.T, c *contract) {
	ctx, hits := c.ctx, c.s.Hits
	type caller struct {
		u   *user.User
		svc *catalog.Service
		key uint64
	}
	newCaller := func(t *testing.T) caller {
		u := c.user(t)
		return caller{u, c.service(t), c.key(t, u, 1000).ID}
	}
	put := func(t *testing.T, by caller, key uint64, req string, created time.Time, st hitlog.Status) hitlog.Hit {
		t.Helper()
		h := hitlog.Hit{UserID: by.u.ID, ServiceID: by.svc.ID, APIKeyID: key, RequestID: req, RequestPayload: `{"q":"` + req + `"}`,
			ChargeAmount: dec("1.00"), CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1", Status: st,
			CreatedAt: created, UpdatedAt: created}
		if st == hitlog.StatusPending {
			h.ChargeAmount, h.Reserved = decimal.Zero, dec("1.00")
		}
		if err := hits.Insert(ctx, &h); err != nil {
			t.Fatal(err)
		}
		if h.ID == 0 {
			t.Fatal("Insert gave no id")
		}
		return h
	}
	settled := func(h hitlog.Hit, st hitlog.Status) *hitlog.Hit {
		resp := fmt.Sprintf(`{"status":%q}`, st)
		h.Status, h.ResponsePayload, h.ResponseTimeMs = st, &resp, 120
		h.ChargeAmount, h.CostAmount = decimal.Zero, decimal.Zero
		if st == hitlog.StatusSuccess {
			h.ChargeAmount, h.CostAmount = dec("1.00"), dec("0.40")
		}
		return &h
	}
	status := func(t *testing.T, req string) hitlog.Status {
		t.Helper()
		h, err := hits.ByRequestID(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return h.Status
	}
	reqs := func(hs []hitlog.Hit) []string {
		out := []string{}
		for _, h := range hs {
			out = append(out, h.RequestID)
		}
		return out
	}

	t.Run("Finish settles a pending hit once", func(t *testing.T) {
		by := newCaller(t)
		h := put(t, by, by.key, "fin-1", at.Add(time.Hour), hitlog.StatusPending)
		if err := hits.Finish(ctx, settled(h, hitlog.StatusSuccess)); err != nil {
			t.Fatal(err)
		}
		got, err := hits.ByRequestID(ctx, "fin-1")
		if err != nil || got.ID != h.ID || got.Status != hitlog.StatusSuccess || !got.ChargeAmount.Equal(dec("1.00")) ||
			!got.CostAmount.Equal(dec("0.40")) || got.ResponseTimeMs != 120 || got.RequestPayload != h.RequestPayload ||
			got.ResponsePayload == nil || *got.ResponsePayload != `{"status":"success"}` {
			t.Fatalf("the settled hit: %+v, %v", got, err)
		}
		if err := hits.Finish(ctx, settled(h, hitlog.StatusFailed)); !errors.Is(err, hitlog.ErrNotPending) {
			t.Fatalf("a second settlement: %v, want ErrNotPending", err)
		}
		if st := status(t, "fin-1"); st != hitlog.StatusSuccess {
			t.Fatalf("the second settlement changed the hit to %s", st)
		}
		ghost := settled(h, hitlog.StatusFailed)
		ghost.ID, ghost.RequestID = 987654, "fin-ghost"
		if err := hits.Finish(ctx, ghost); !isKind(err, errs.NotFound) {
			t.Fatalf("Finish of an unknown hit: %v, want not found", err)
		}
		if _, err := hits.ByRequestID(ctx, "fin-ghost"); !isKind(err, errs.NotFound) {
			t.Fatalf("ByRequestID of an unknown hit: %v, want not found", err)
		}
	})

	t.Run("FinishMany and SucceedMany report the hits they moved", func(t *testing.T) {
		by := newCaller(t)
		a := put(t, by, by.key, "many-a", at.Add(time.Hour), hitlog.StatusPending)
		b := put(t, by, by.key, "many-b", at.Add(time.Hour), hitlog.StatusPending)
		d := put(t, by, by.key, "many-c", at.Add(time.Hour), hitlog.StatusPending)
		if err := hits.Finish(ctx, settled(b, hitlog.StatusFailed)); err != nil {
			t.Fatal(err)
		}
		moved, err := hits.FinishMany(ctx, []*hitlog.Hit{settled(a, hitlog.StatusFailed), settled(b, hitlog.StatusFailed)})
		if err != nil || !slices.Equal(moved, []bool{true, false}) {
			t.Fatalf("FinishMany: %v, %v; want [true false]", moved, err)
		}
		moved, err = hits.SucceedMany(ctx, []*hitlog.Hit{settled(d, hitlog.StatusSuccess), settled(a, hitlog.StatusSuccess)})
		if err != nil || !slices.Equal(moved, []bool{true, false}) {
			t.Fatalf("SucceedMany: %v, %v; want [true false]", moved, err)
		}
		for req, want := range map[string]hitlog.Status{"many-a": hitlog.StatusFailed, "many-b": hitlog.StatusFailed, "many-c": hitlog.StatusSuccess} {
			if st := status(t, req); st != want {
				t.Errorf("%s is %s, want %s", req, st, want)
			}
		}
	})

	t.Run("a reseller's customer's hits carry the reseller and the commission", func(t *testing.T) {
		reseller := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
		by := newCaller(t)
		rid := reseller.ID
		mk := func(req string, st hitlog.Status) *hitlog.Hit {
			return &hitlog.Hit{UserID: by.u.ID, ServiceID: by.svc.ID, APIKeyID: by.key, RequestID: req, RequestPayload: "{}",
				ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: dec("1.50"), IPAddress: "127.0.0.1", Status: st,
				ResellerID: &rid, CreatedAt: at, UpdatedAt: at}
		}
		won := func(h *hitlog.Hit) *hitlog.Hit {
			s := *h
			resp := "{}"
			s.Status, s.ResponsePayload, s.ChargeAmount, s.CostAmount, s.Commission = hitlog.StatusSuccess, &resp, dec("1.50"), dec("0.40"), dec("0.5000")
			return &s
		}
		one, many1, many2, many3 := mk("rs-one", hitlog.StatusPending), mk("rs-m1", hitlog.StatusPending), mk("rs-m2", hitlog.StatusPending), mk("rs-m3", hitlog.StatusPending)
		done := mk("rs-done", hitlog.StatusSuccess)
		done.Commission = dec("0.2500")
		if err := hits.Insert(ctx, one); err != nil {
			t.Fatal(err)
		}
		if err := hits.InsertMany(ctx, []*hitlog.Hit{many1, many2, many3, done}); err != nil {
			t.Fatal(err)
		}
		if err := hits.Finish(ctx, won(one)); err != nil {
			t.Fatal(err)
		}
		if _, err := hits.FinishMany(ctx, []*hitlog.Hit{won(many1)}); err != nil {
			t.Fatal(err)
		}
		if _, err := hits.SucceedMany(ctx, []*hitlog.Hit{won(many2)}); err != nil {
			t.Fatal(err)
		}
		failed := *many3
		resp := "{}"
		failed.Status, failed.ResponsePayload = hitlog.StatusFailed, &resp
		if _, err := hits.FinishMany(ctx, []*hitlog.Hit{&failed}); err != nil {
			t.Fatal(err)
		}
		for req, want := range map[string]string{"rs-one": "0.50", "rs-m1": "0.50", "rs-m2": "0.50", "rs-m3": "0", "rs-done": "0.25"} {
			got, err := hits.ByRequestID(ctx, req)
			if err != nil || got.ResellerID == nil || *got.ResellerID != rid || !got.Commission.Equal(dec(want)) {
				t.Errorf("%s: %+v, %v; want reseller %d, commission %s", req, got, err, rid, want)
			}
		}
		plain, err := hits.ByRequestID(ctx, "fin-1")
		if err == nil && (plain.ResellerID != nil || !plain.Commission.IsZero()) {
			t.Errorf("an ordinary caller's hit: reseller %v, commission %s", plain.ResellerID, plain.Commission)
		}
	})

	t.Run("Pending lists pending hits created before, oldest first", func(t *testing.T) {
		by := newCaller(t)
		base := at.Add(-2 * time.Hour)
		put(t, by, by.key, "pend-late", base.Add(2*time.Second), hitlog.StatusPending)
		put(t, by, by.key, "pend-early", base, hitlog.StatusPending) // a higher id, created earlier
		put(t, by, by.key, "pend-done", base.Add(time.Second), hitlog.StatusSuccess)
		got, err := hits.Pending(ctx, base.Add(10*time.Second), 10)
		if err != nil || !slices.Equal(reqs(got), []string{"pend-early", "pend-late"}) {
			t.Fatalf("Pending: %v, %v; want pend-early, pend-late", reqs(got), err)
		}
		if got, err = hits.Pending(ctx, base.Add(10*time.Second), 1); err != nil || !slices.Equal(reqs(got), []string{"pend-early"}) {
			t.Fatalf("Pending up to 1: %v, %v", reqs(got), err)
		}
		if got, err = hits.Pending(ctx, base.Add(2*time.Second), 10); err != nil || !slices.Equal(reqs(got), []string{"pend-early"}) {
			t.Fatalf("Pending before the later one's creation: %v, %v", reqs(got), err)
		}
	})

	t.Run("lists and exports", func(t *testing.T) {
		a, b := newCaller(t), newCaller(t)
		k2 := c.key(t, a.u, 1000).ID
		base := at.Add(10 * time.Hour)
		s := func(n int) time.Time { return base.Add(time.Duration(n) * time.Second) }
		put(t, a, a.key, "h1", s(0), hitlog.StatusSuccess)
		put(t, a, a.key, "h2", s(2), hitlog.StatusFailed)
		put(t, a, k2, "h3", s(1), hitlog.StatusPending)
		put(t, a, k2, "h4", s(2), hitlog.StatusSuccess)
		longResp := strings.Repeat("y", 201)
		long := hitlog.Hit{UserID: a.u.ID, ServiceID: a.svc.ID, APIKeyID: a.key, RequestID: "h5",
			RequestPayload: strings.Repeat("₹", 250), ResponsePayload: &longResp,
			ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1",
			Status: hitlog.StatusInsufficientBalance, CreatedAt: s(3), UpdatedAt: s(3)}
		if err := hits.Insert(ctx, &long); err != nil {
			t.Fatal(err)
		}
		put(t, a, a.key, "h6", s(2), hitlog.StatusSuccess)
		put(t, b, b.key, "hb", s(1), hitlog.StatusSuccess)
		from, to := s(1), s(2)
		first, last := s(0), s(3)
		cases := []struct {
			name string
			f    hitlog.Filter
			want []string
		}{
			{"the user's", hitlog.Filter{UserID: &a.u.ID}, []string{"h5", "h6", "h4", "h2", "h3", "h1"}},
			{"success", hitlog.Filter{UserID: &a.u.ID, Status: hitlog.StatusSuccess}, []string{"h6", "h4", "h1"}},
			{"pending", hitlog.Filter{UserID: &a.u.ID, Status: hitlog.StatusPending}, []string{"h3"}},
			{"failed of a key", hitlog.Filter{APIKeyID: &a.key, Status: hitlog.StatusFailed}, []string{"h2"}},
			{"a key's", hitlog.Filter{APIKeyID: &a.key}, []string{"h5", "h6", "h2", "h1"}},
			{"a service's", hitlog.Filter{ServiceID: &b.svc.ID}, []string{"hb"}},
			{"inclusive dates", hitlog.Filter{UserID: &a.u.ID, From: &from, To: &to}, []string{"h6", "h4", "h2", "h3"}},
			{"everyone's", hitlog.Filter{From: &first, To: &last}, []string{"h5", "h6", "h4", "h2", "hb", "h3", "h1"}},
			{"a status alone", hitlog.Filter{From: &first, To: &last, Status: hitlog.StatusInsufficientBalance}, []string{"h5"}},
		}
		for _, tc := range cases {
			f := tc.f
			f.PerPage = 100
			got, total, err := hits.List(ctx, f)
			if err != nil || !slices.Equal(reqs(got), tc.want) || total != int64(len(tc.want)) {
				t.Errorf("List %s: %v (total %d), %v; want %v", tc.name, reqs(got), total, err, tc.want)
			}
			var visited []hitlog.Hit
			if err := hits.ForEach(ctx, tc.f, func(h hitlog.Hit) error { visited = append(visited, h); return nil }); err != nil ||
				!slices.Equal(reqs(visited), tc.want) {
				t.Errorf("ForEach %s: %v, %v; want %v", tc.name, reqs(visited), err, tc.want)
			}
		}
		for _, pg := range []struct {
			page int
			want []string
		}{{1, []string{"h5", "h6", "h4", "h2"}}, {2, []string{"h3", "h1"}}, {3, []string{}}} {
			got, total, err := hits.List(ctx, hitlog.Filter{UserID: &a.u.ID, Page: pg.page, PerPage: 4})
			if err != nil || !slices.Equal(reqs(got), pg.want) || total != 6 {
				t.Errorf("page %d of 4: %v (total %d), %v; want %v of 6", pg.page, reqs(got), total, err, pg.want)
			}
		}

		// The list carries whole payloads; the export cuts them.
		listed, _, _ := hits.List(ctx, hitlog.Filter{UserID: &a.u.ID, PerPage: 1})
		if len(listed) != 1 || listed[0].RequestPayload != long.RequestPayload || *listed[0].ResponsePayload != *long.ResponsePayload {
			t.Fatalf("the listed hit's payloads were changed: %+v", listed)
		}
		var exported []hitlog.Hit
		_ = hits.ForEach(ctx, hitlog.Filter{UserID: &a.u.ID}, func(h hitlog.Hit) error { exported = append(exported, h); return nil })
		if len(exported) != 6 || exported[0].RequestPayload != strings.Repeat("₹", 200)+"…" ||
			exported[0].ResponsePayload == nil || *exported[0].ResponsePayload != strings.Repeat("y", 200)+"…" ||
			exported[1].RequestPayload != `{"q":"h6"}` || exported[1].ResponsePayload != nil {
			t.Fatalf("exported payloads: %q, %v; then %q", exported[0].RequestPayload, exported[0].ResponsePayload, exported[1].RequestPayload)
		}
		stop := errors.New("stop")
		n := 0
		err := hits.ForEach(ctx, hitlog.Filter{UserID: &a.u.ID}, func(hitlog.Hit) error {
			if n++; n == 3 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || n != 3 {
			t.Fatalf("ForEach after fn's error: %v after %d hits; want fn's error after 3", err, n)
		}

		var byUser []hitlog.Hit
		if err := hits.ForEachByUser(ctx, a.u.ID, func(h hitlog.Hit) error { byUser = append(byUser, h); return nil }); err != nil {
			t.Fatal(err)
		}
		if want := []string{"h1", "h2", "h3", "h4", "h5", "h6"}; !slices.Equal(reqs(byUser), want) {
			t.Fatalf("ForEachByUser: %v, want %v (id order)", reqs(byUser), want)
		}
		for _, h := range byUser {
			if h.RequestPayload != "" || h.ResponsePayload != nil {
				t.Fatalf("ForEachByUser carried the payloads of %s", h.RequestID)
			}
		}
	})
}
