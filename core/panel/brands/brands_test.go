package brands_test

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

	"paygate/core/audit"
	"paygate/core/brand"
	"paygate/core/errs"
	"paygate/core/panel"
	"paygate/core/panel/brands"
	"paygate/core/store/storetest"
	"paygate/core/user"
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

type fixture struct {
	brands   *brands.Brands
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
	f.brands = brands.New(brands.Deps{Tx: db, Store: db.Stores().Brands, Users: db.Stores().Users, Files: f.files,
		Now:    func() time.Time { return time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC) },
		Config: brands.Config{PlatformName: "Paygate", PublicBaseURL: "https://pay.example"}})
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
	if err != nil || b.Name != "Acme" || len(b.Domains) != 1 || b.Domains[0] != "brand.example" {
		t.Fatalf("Update: %+v, %v", b, err)
	}
	if e := f.db.AuditEntries(); len(e) != 1 || e[0].Action != audit.BrandUpdate || e[0].ActorID != 10 || e[0].TargetID == nil || *e[0].TargetID != 10 {
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
	if want := []string{audit.BrandUpdate, audit.BrandLogoSet, audit.BrandLogoSet, audit.BrandLogoDelete}; !slices.Equal(actions, want) {
		t.Fatalf("audit actions %v, want %v", actions, want)
	}
	// Removing no logo records nothing.
	if err := f.brands.DeleteLogo(ctx, f.reseller); err != nil || len(f.db.AuditEntries()) != 4 {
		t.Fatalf("second DeleteLogo: %v, %d entries", err, len(f.db.AuditEntries()))
	}

	// A host whose owner is no longer an active reseller shows the platform.
	blocked := *f.reseller
	blocked.Status = user.StatusBlocked
	f.db.Put(blocked)
	other := brands.New(brands.Deps{Tx: f.db, Store: f.db.Stores().Brands, Users: f.db.Stores().Users, Config: brands.Config{PlatformName: "Paygate"}})
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
	if _, err := f.brands.Update(ctx, f.reseller, brand.Input{Name: "Acme Recharge", Domains: []string{"brand.example"}}); err != nil {
		t.Fatal(err)
	}
	_ = m.Send(ctx, msg("CUST@example.com"))
	_ = m.Send(ctx, msg("plain@example.com"))
	_ = m.Send(ctx, msg("res@example.com"))
	_ = m.Send(ctx, msg("nobody@example.com"))
	want := []struct{ from, link string }{
		{"", "https://pay.example/reset-password?token=abc"},
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

// The claim of an unconfirmed customer (core/panel/accounts) is the
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
