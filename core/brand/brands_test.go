package brand_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/brand"
	"paygate/core/errs"
	"paygate/core/panel"
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

// sentMail records what a mailer was asked to send.
type sentMail struct{ got []panel.Message }

func (s *sentMail) Send(_ context.Context, m panel.Message) error {
	s.got = append(s.got, m)
	return nil
}

type fixture struct {
	brands   *brand.Brands
	store    *storetest.Brands
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
		store:    storetest.NewBrands(),
		files:    &memFiles{files: map[string][]byte{}},
		reseller: &user.User{ID: 10, Email: "res@example.com", Role: user.RoleReseller, Status: user.StatusActive},
		customer: &user.User{ID: 11, Email: "cust@example.com", Role: user.RoleUser, Status: user.StatusActive, ParentID: &parent},
		plain:    &user.User{ID: 12, Email: "plain@example.com", Role: user.RoleUser, Status: user.StatusActive},
	}
	db.Put(*f.reseller, *f.customer, *f.plain)
	f.brands = brand.New(brand.Deps{Store: f.store, Users: db.Stores().Users, Files: f.files,
		Now:    func() time.Time { return time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC) },
		Config: brand.Config{PlatformName: "Paygate", PublicBaseURL: "https://pay.example"}})
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

	// A host whose owner is no longer an active reseller shows the platform.
	blocked := *f.reseller
	blocked.Status = user.StatusBlocked
	db := storetest.New()
	db.Put(blocked)
	other := brand.New(brand.Deps{Store: f.store, Users: db.Stores().Users, Config: brand.Config{PlatformName: "Paygate"}})
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
