package storefront_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
	"paygate/core/resale/brand"
	"paygate/core/resale/storefront"
)

// memFiles is an in-memory panel.Files.
type memFiles struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memFiles) Save(_ context.Context, name string, r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[name] = b
	return nil
}

func (m *memFiles) Open(_ context.Context, name string) (io.ReadCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[name]
	if !ok {
		return nil, errs.ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func (m *memFiles) Delete(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, name)
	return nil
}

func picture(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, h/2, color.RGBA{200, 40, 40, 255})
	}
	return img
}

func pngOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sentMail records what a mailer was asked to send.
type sentMail struct{ got []panel.Message }

func (s *sentMail) Send(_ context.Context, m panel.Message) error {
	s.got = append(s.got, m)
	return nil
}

// fakeProber is the Internet as a test sets it: TXT records by name, and
// the platform answering the challenge (through f.brands.Challenge) on
// the hosts routed to it.
type fakeProber struct {
	mu     sync.Mutex
	txt    map[string][]string
	routed map[string]bool
	b      **storefront.Brands
}

func (p *fakeProber) TXT(_ context.Context, name string) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.txt[name]; ok {
		return r, nil
	}
	return nil, errs.ErrNotFound
}

func (p *fakeProber) Get(ctx context.Context, url string) (int, []byte, error) {
	rest, ok := strings.CutPrefix(url, "https://")
	host, path, _ := strings.Cut(rest, "/")
	p.mu.Lock()
	routed := p.routed[host]
	p.mu.Unlock()
	if !ok || !routed {
		return 0, nil, errors.New("connection refused")
	}
	token := strings.TrimPrefix("/"+path, brand.ChallengePath)
	if ok, err := (*p.b).Challenge(ctx, host, token); err != nil || !ok {
		return 404, []byte(`{"error":"challenge_not_found"}`), err
	}
	return 200, []byte(token), nil
}

// prove publishes the TXT record of the reseller's claim on host and
// routes the host to the platform.
func (p *fakeProber) prove(host, token string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.txt[brand.TXTName(host)] = append(p.txt[brand.TXTName(host)], token)
	p.routed[host] = true
}

type fixture struct {
	brands   *storefront.Brands
	prober   *fakeProber
	db       *storetest.DB
	files    *memFiles
	reseller *user.User // id 10, active reseller
	customer *user.User // id 11, its customer
	plain    *user.User // id 12, an ordinary user
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	db := storetest.New()
	parent := uint64(10)
	f := fixture{
		db:       db,
		files:    &memFiles{files: map[string][]byte{}},
		reseller: &user.User{ID: 10, Email: "res@example.com", Role: user.RoleReseller, Status: user.StatusActive},
		customer: &user.User{ID: 11, Email: "cust@example.com", Role: user.RoleUser, Status: user.StatusActive, ParentID: &parent},
		plain:    &user.User{ID: 12, Email: "plain@example.com", Role: user.RoleUser, Status: user.StatusActive},
	}
	db.Put(*f.reseller, *f.customer, *f.plain)
	f.prober = &fakeProber{txt: map[string][]string{}, routed: map[string]bool{}, b: &f.brands}
	f.brands = storefront.New(storefront.Deps{Tx: store.Narrow(db, storefront.TxStoresOf), Store: db.Stores().Brands, Users: db.Stores().Users, Files: f.files, Prober: f.prober,
		Now:    func() time.Time { return time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC) },
		Config: storefront.Config{PlatformName: "Paygate", PublicBaseURL: "https://pay.example"}})
	return f
}

func TestBrandsOnlyForResellers(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.brands.Get(ctx, f.plain); !errors.Is(err, brand.ErrNotReseller) {
		t.Fatalf("Get by a user: %v", err)
	}
	if _, err := f.brands.Update(ctx, f.customer, brand.Input{Name: "X"}); !errors.Is(err, brand.ErrNotReseller) {
		t.Fatalf("Update by a customer: %v", err)
	}
	if _, err := f.brands.SetLogo(ctx, f.plain, bytes.NewReader(pngOf(t, picture(2, 2)))); !errors.Is(err, brand.ErrNotReseller) {
		t.Fatalf("SetLogo by a user: %v", err)
	}
}

func TestBrandsForHost(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	b, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme", SupportEmail: "help@acme.example", Domains: []string{"Brand.Example"}})
	if err != nil || b.Name != "Acme" || len(b.Domains) != 1 || b.Domains[0].Host != "brand.example" || b.Domains[0].State != brand.DomainPending {
		t.Fatalf("Update: %+v, %v", b, err)
	}
	// Unproven, the domain shows the platform and registers no customer.
	if p, err := f.brands.ForHost(ctx, "brand.example"); err != nil || p.Reseller {
		t.Fatalf("ForHost(unverified): %+v, %v", p, err)
	}
	if _, ok, _ := f.brands.ResellerOfHost(ctx, "brand.example"); ok {
		t.Fatal("an unverified domain registers customers")
	}
	f.prober.prove("brand.example", b.Domains[0].Token)
	if _, err := f.brands.VerifyDomain(ctx, f.reseller, "brand.example"); err != nil {
		t.Fatal(err)
	}
	if e := f.db.AuditEntries(); len(e) != 2 || e[0].Action != audit.BrandUpdate || e[1].Action != audit.BrandDomainVerify || e[0].ActorID != 10 || e[0].TargetID == nil || *e[0].TargetID != 10 {
		t.Fatalf("audit after Update: %+v", e)
	}
	// The platform's own host is refused as a domain.
	if _, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme", Domains: []string{"pay.example"}}); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("platform host: %v", err)
	}
	p, err := f.brands.ForHost(ctx, "BRAND.example:8080")
	if err != nil || !p.Reseller || p.Name != "Acme" || p.SupportEmail != "help@acme.example" {
		t.Fatalf("ForHost(brand host): %+v, %v", p, err)
	}
	for _, h := range []string{"pay.example", "other.example", ""} {
		if p, err := f.brands.ForHost(ctx, h); err != nil || p.Reseller || p.Name != "Paygate" {
			t.Fatalf("ForHost(%q): %+v, %v", h, p, err)
		}
	}
	if _, _, err := f.brands.LogoForHost(ctx, "brand.example"); !errors.Is(err, brand.ErrNoLogo) {
		t.Fatalf("logo before upload: %v", err)
	}

	// A logo: stored re-encoded, served for the host, replaced and removed.
	if _, err := f.brands.SetLogo(ctx, f.reseller, strings.NewReader("<svg/>")); !errors.Is(err, brand.ErrLogoType) {
		t.Fatalf("svg: %v", err)
	}
	b, err = f.brands.SetLogo(ctx, f.reseller, bytes.NewReader(jpegOf(t, picture(8, 8))))
	if err != nil || !b.HasLogo() || b.LogoType != "image/jpeg" {
		t.Fatalf("SetLogo: %+v, %v", b, err)
	}
	first := b.LogoPath
	rc, typ, err := f.brands.LogoForHost(ctx, "brand.example")
	if err != nil || typ != "image/jpeg" {
		t.Fatalf("LogoForHost: %q, %v", typ, err)
	}
	rc.Close()
	b, err = f.brands.SetLogo(ctx, f.reseller, bytes.NewReader(pngOf(t, picture(8, 8))))
	if err != nil || b.LogoPath == first || b.LogoType != "image/png" {
		t.Fatalf("second SetLogo: %+v, %v", b, err)
	}
	if _, kept := f.files.files[first]; kept || len(f.files.files) != 1 {
		t.Fatalf("replaced logo kept: %v", f.files.files)
	}
	if err := f.brands.DeleteLogo(ctx, f.reseller); err != nil || len(f.files.files) != 0 {
		t.Fatalf("DeleteLogo: %v, files %v", err, f.files.files)
	}
	var actions []string
	for _, e := range f.db.AuditEntries() {
		actions = append(actions, e.Action)
	}
	if want := []string{audit.BrandUpdate, audit.BrandDomainVerify, audit.BrandLogoSet, audit.BrandLogoSet, audit.BrandLogoDelete}; !slices.Equal(actions, want) {
		t.Fatalf("audit actions %v, want %v", actions, want)
	}
	// Removing no logo records nothing.
	if err := f.brands.DeleteLogo(ctx, f.reseller); err != nil || len(f.db.AuditEntries()) != 5 {
		t.Fatalf("second DeleteLogo: %v, %d entries", err, len(f.db.AuditEntries()))
	}

	// A host whose owner is no longer an active reseller shows the platform.
	blocked := *f.reseller
	blocked.Status = user.StatusBlocked
	f.db.Put(blocked)
	other := storefront.New(storefront.Deps{Tx: store.Narrow(f.db, storefront.TxStoresOf), Store: f.db.Stores().Brands, Users: f.db.Stores().Users, Config: storefront.Config{PlatformName: "Paygate"}})
	if p, err := other.ForHost(ctx, "brand.example"); err != nil || p.Reseller {
		t.Fatalf("blocked reseller's host: %+v, %v", p, err)
	}
	if _, ok, _ := other.ResellerOfHost(ctx, "brand.example"); ok {
		t.Fatal("a blocked reseller's host registers its customers")
	}
}

func TestMailerBrandsCustomersMail(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sent := &sentMail{}
	m := f.brands.Mailer(sent)
	msg := func(to string) panel.Message {
		link := "https://pay.example/reset-password?token=abc"
		return panel.Message{To: to, Subject: "Reset your password", Text: "open " + link + "\n", Link: link}
	}
	// No brand yet: unchanged.
	_ = m.Send(ctx, msg("cust@example.com"))
	b, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme Recharge", Domains: []string{"brand.example"}})
	if err != nil {
		t.Fatal(err)
	}
	// An unverified domain gets no links: the brand name only.
	_ = m.Send(ctx, msg("cust@example.com"))
	f.prober.prove("brand.example", b.Domains[0].Token)
	if _, err := f.brands.VerifyDomain(ctx, f.reseller, "brand.example"); err != nil {
		t.Fatal(err)
	}
	_ = m.Send(ctx, msg("CUST@example.com"))
	_ = m.Send(ctx, msg("plain@example.com"))
	_ = m.Send(ctx, msg("res@example.com"))
	_ = m.Send(ctx, msg("nobody@example.com"))
	want := []struct{ from, link string }{
		{"", "https://pay.example/reset-password?token=abc"},
		{"Acme Recharge", "https://pay.example/reset-password?token=abc"},
		{"Acme Recharge", "https://brand.example/reset-password?token=abc"},
		{"", "https://pay.example/reset-password?token=abc"},
		{"", "https://pay.example/reset-password?token=abc"},
		{"", "https://pay.example/reset-password?token=abc"},
	}
	if len(sent.got) != len(want) {
		t.Fatalf("sent %d", len(sent.got))
	}
	for i, w := range want {
		g := sent.got[i]
		if g.FromName != w.from || g.Link != w.link || !strings.Contains(g.Text, w.link) {
			t.Errorf("mail %d: from %q link %q text %q; want %q %q", i, g.FromName, g.Link, g.Text, w.from, w.link)
		}
	}
}

// TestVerifyDomainFirstProofWins: two resellers claim one host; each check
// says what is missing; the first proof wins, and the other is told (lost,
// 409 on its check and when it adds the host again).
func TestVerifyDomainFirstProofWins(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rival := &user.User{ID: 13, Email: "rival@example.com", Role: user.RoleReseller, Status: user.StatusActive}
	f.db.Put(*rival)
	if _, err := f.brands.Update(ctx, rival, brand.Input{Name: "Rival", Domains: []string{"shop.example"}}); err != nil {
		t.Fatal(err)
	}
	mine, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme", Domains: []string{"shop.example"}})
	if err != nil {
		t.Fatalf("a second claim on a pending host: %v", err)
	}
	token := mine.Domains[0].Token

	if _, err := f.brands.VerifyDomain(ctx, f.reseller, "nothere.example"); !errors.Is(err, brand.ErrDomainNotFound) {
		t.Fatalf("unclaimed host: %v", err)
	}
	if _, err := f.brands.VerifyDomain(ctx, f.plain, "shop.example"); !errors.Is(err, brand.ErrNotReseller) {
		t.Fatalf("a user: %v", err)
	}
	steps := []struct {
		name    string
		setup   func()
		problem string // "" for success
	}{
		{"no TXT record", func() {}, "no TXT record _paygate-verify.shop.example"},
		{"another token in TXT", func() { f.prober.txt["_paygate-verify.shop.example"] = []string{"pgv_other"} }, "no TXT record"},
		{"TXT but not routed here", func() { f.prober.txt["_paygate-verify.shop.example"] = []string{`"` + token + `"`} }, "is not answered by this service"},
		{"both", func() { f.prober.routed["shop.example"] = true }, ""},
	}
	for _, s := range steps {
		s.setup()
		b, err := f.brands.VerifyDomain(ctx, f.reseller, "SHOP.example")
		if s.problem == "" {
			if err != nil || b.Domains[0].State != brand.DomainVerified {
				t.Fatalf("%s: %+v, %v", s.name, b, err)
			}
			continue
		}
		if !errors.Is(err, brand.ErrDomainUnproven) || !strings.Contains(err.Error(), s.problem) {
			t.Fatalf("%s: %v, want %q", s.name, err, s.problem)
		}
		got, _ := f.brands.Get(ctx, f.reseller)
		if d := got.Domains[0]; d.State != brand.DomainPending || !strings.Contains(d.Problem, s.problem) || d.CheckedAt == nil {
			t.Fatalf("%s: claim after the check %+v", s.name, d)
		}
		if _, ok, _ := f.brands.ResellerOfHost(ctx, "shop.example"); ok {
			t.Fatalf("%s: the host answers", s.name)
		}
	}
	if id, ok, _ := f.brands.ResellerOfHost(ctx, "shop.example"); !ok || id != f.reseller.ID {
		t.Fatalf("verified host's reseller %d, %v", id, ok)
	}
	// The rival, even with its own TXT record in place, lost.
	r, _ := f.brands.Get(ctx, rival)
	if r.Domains[0].State != brand.DomainLost {
		t.Fatalf("rival's claim %+v", r.Domains[0])
	}
	f.prober.prove("shop.example", r.Domains[0].Token)
	if _, err := f.brands.VerifyDomain(ctx, rival, "shop.example"); errs.KindOf(err) != errs.Conflict || !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("the loser's check: %v", err)
	}
	if _, err := f.brands.Update(ctx, rival, brand.Input{Name: "Rival"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.brands.Update(ctx, rival, brand.Input{Name: "Rival", Domains: []string{"shop.example"}}); !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("the loser adding the host again: %v", err)
	}
	// Checks need a prober.
	bare := storefront.New(storefront.Deps{Tx: store.Narrow(f.db, storefront.TxStoresOf), Store: f.db.Stores().Brands, Users: f.db.Stores().Users})
	if _, err := bare.Update(ctx, rival, brand.Input{Name: "Rival", Domains: []string{"else.example"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := bare.VerifyDomain(ctx, rival, "else.example"); !errors.Is(err, brand.ErrDomainChecksUnavailable) {
		t.Fatalf("no prober: %v", err)
	}
}

// The claim of an unconfirmed customer (core/accounts) is the
// platform's mail: never under the reseller's brand nor through its domain.
func TestMailerLeavesUnbrandedMailAlone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sent := &sentMail{}
	m := f.brands.Mailer(sent)
	if _, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme Recharge", Domains: []string{"brand.example"}}); err != nil {
		t.Fatal(err)
	}
	link := "https://pay.example/reset-password?token=pr_abc&email=cust%40example.com"
	claim := panel.Message{To: "cust@example.com", Subject: "Claim your account", Text: "open " + link + "\n", Link: link, Unbranded: true}
	_ = m.Send(ctx, claim)
	plain := claim
	plain.Unbranded = false
	_ = m.Send(ctx, plain)
	if len(sent.got) != 2 {
		t.Fatalf("sent %d", len(sent.got))
	}
	if g := sent.got[0]; g.FromName != "" || g.Link != link || g.Text != claim.Text {
		t.Errorf("unbranded mail changed: %+v", g)
	}
	if g := sent.got[1]; g.FromName != "Acme Recharge" {
		t.Errorf("the same mail without Unbranded: %+v", g)
	}
}

// An operator's word verifies a pending claim (VerifyDomainForOperator):
// each case is the claims on a host, the reseller the operator names (0 for
// none) and what it answers; the reseller's own proof and the operator's
// share one rule, the first proof wins.
func TestVerifyDomainForOperator(t *testing.T) {
	const a, b = 10, 13
	cases := []struct {
		name     string
		claims   []uint64 // resellers claiming shop.example, in order
		proven   uint64   // a reseller that proved it already (its own check), 0 for none
		reseller uint64
		kind     errs.Kind // 0 (Internal) for success
		code     string
		winner   uint64
		already  bool
	}{
		{name: "the only claim", claims: []uint64{a}, winner: a},
		{name: "the only claim, named", claims: []uint64{a}, reseller: a, winner: a},
		{name: "no claim", kind: errs.NotFound, code: "domain_not_found"},
		{name: "a reseller that does not claim it", claims: []uint64{a}, reseller: b, kind: errs.NotFound, code: "domain_not_found"},
		{name: "two claims, none named", claims: []uint64{b, a}, kind: errs.Conflict, code: "domain_claims_several"},
		{name: "two claims, one named", claims: []uint64{b, a}, reseller: a, winner: a},
		{name: "proven by the one named", claims: []uint64{a, b}, proven: a, reseller: a, winner: a, already: true},
		{name: "proven by its only claimant", claims: []uint64{a}, proven: a, winner: a, already: true},
		{name: "proven by another", claims: []uint64{a, b}, proven: a, reseller: b, kind: errs.Conflict, code: "domain_taken"},
		{name: "proven, others claim it, none named", claims: []uint64{a, b}, proven: a, kind: errs.Conflict, code: "domain_taken"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			f.db.Put(user.User{ID: b, Email: "rival@example.com", Role: user.RoleReseller, Status: user.StatusActive})
			who := map[uint64]*user.User{a: f.reseller, b: {ID: b, Role: user.RoleReseller}}
			for _, id := range c.claims {
				br, err := f.brands.Update(ctx, who[id], brand.Input{Name: "Brand", Domains: []string{"shop.example"}})
				if err != nil {
					t.Fatal(err)
				}
				if id == c.proven {
					f.prober.prove("shop.example", br.Domains[0].Token)
				}
			}
			if c.proven != 0 {
				if _, err := f.brands.VerifyDomain(ctx, who[c.proven], "shop.example"); err != nil {
					t.Fatal(err)
				}
			}
			audited := func() int {
				es, _, _ := f.db.Stores().Audit.List(ctx, audit.Filter{Action: audit.BrandDomainVerify})
				return len(es)
			}
			before := audited()
			res, err := f.brands.VerifyDomainForOperator(ctx, " Shop.Example. ", c.reseller)
			owner, ok, _ := f.brands.ResellerOfHost(ctx, "shop.example")
			if c.code != "" {
				e, isErr := errs.As(err)
				if !isErr || e.Kind != c.kind || e.Code != c.code || audited() != before || owner != c.proven {
					t.Fatalf("answered %+v, %v; host's reseller %d; want %s", res, err, owner, c.code)
				}
				return
			}
			if err != nil || res.ResellerID != c.winner || res.Already != c.already || !ok || owner != c.winner {
				t.Fatalf("answered %+v, %v; host's reseller %d, want %d", res, err, owner, c.winner)
			}
			if d := res.Brand.Domains[0]; d.State != brand.DomainVerified || res.Brand.ResellerID != c.winner {
				t.Fatalf("the winner's brand %+v", res.Brand)
			}
			if want := before + 1; c.already && audited() != before || !c.already && audited() != want {
				t.Fatalf("%d audit entries after %d", audited(), before)
			}
			if !c.already {
				es, _, _ := f.db.Stores().Audit.List(ctx, audit.Filter{Action: audit.BrandDomainVerify})
				if es[0].ActorID != audit.Operator || !strings.Contains(string(es[0].After), `"by":"operator"`) {
					t.Fatalf("the operator's entry %+v", es[0])
				}
			}
			// The loser's own check is refused: one proof per host.
			for _, id := range c.claims {
				if id != c.winner {
					if _, err := f.brands.VerifyDomain(ctx, who[id], "shop.example"); !errors.Is(err, brand.ErrDomainTaken) {
						t.Fatalf("the loser's check: %v", err)
					}
				}
			}
		})
	}
	if _, err := newFixture(t).brands.VerifyDomainForOperator(context.Background(), "https://shop.example/", 0); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("a URL for a host: %v", err)
	}
}
