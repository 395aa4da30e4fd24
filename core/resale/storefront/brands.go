package storefront

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
)

// Config is what brands need from the service's configuration.
type Config struct {
	PlatformName  string // the brand shown on the platform's own host (MAIL_FROM's name)
	PublicBaseURL string // PUBLIC_BASE_URL: its host is the platform's and no reseller's; "" means http://localhost:8080
}

// DefaultPlatformName is the platform's brand when MAIL_FROM names none.
const DefaultPlatformName = "Paygate"

// Deps are the ports of brands. Now may be nil (time.Now).
type Deps struct {
	Tx    store.TransactorOf[TxStores] // writes: the brand and its audit entry in one transaction
	Store brand.Store                  // reads outside a transaction
	Users Users
	Files panel.Files // logos; nil refuses them
	// Prober checks a claimed domain (DNS TXT and a request through the
	// host); nil answers a check with 503 domain_checks_unavailable.
	Prober brand.Prober
	Now    func() time.Time
	Config Config
}

// Brands are the use cases of resellers' brands.
type Brands struct {
	tx       store.TransactorOf[TxStores]
	store    brand.Store
	users    Users
	files    panel.Files
	prober   brand.Prober
	now      func() time.Time
	cfg      Config
	platform string // the platform's host, NormalizeHost's form ("" if unknown)
}

// New wires the brands.
func New(d Deps) *Brands {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Config.PublicBaseURL == "" { // as accounts and the gateway default it
		d.Config.PublicBaseURL = "http://localhost:8080"
	}
	if d.Config.PlatformName == "" {
		d.Config.PlatformName = DefaultPlatformName
	}
	b := &Brands{tx: d.Tx, store: d.Store, users: d.Users, files: d.Files, prober: d.Prober, now: d.Now, cfg: d.Config}
	if _, rest, ok := strings.Cut(d.Config.PublicBaseURL, "://"); ok {
		host, _, _ := strings.Cut(rest, "/")
		b.platform = brand.NormalizeHost(host)
	}
	return b
}

func requireReseller(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleReseller {
		return brand.ErrNotReseller
	}
	return nil
}

// Get is the actor's brand (resellers only).
func (b *Brands) Get(ctx context.Context, actor *user.User) (brand.Brand, error) {
	if err := requireReseller(actor); err != nil {
		return brand.Brand{}, err
	}
	return b.store.Get(ctx, actor.ID)
}

// Update sets the actor's name, support contacts and domains, audited.
func (b *Brands) Update(ctx context.Context, actor *user.User, in brand.Input) (brand.Brand, error) {
	if err := requireReseller(actor); err != nil {
		return brand.Brand{}, err
	}
	in, err := in.Validate(b.platform)
	if err != nil {
		return brand.Brand{}, err
	}
	var after brand.Brand
	now := b.now().UTC()
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.Brands.Get(ctx, actor.ID)
		if err != nil {
			return err
		}
		if err := s.Brands.Save(ctx, actor.ID, in, now); err != nil {
			return err
		}
		if after, err = s.Brands.Get(ctx, actor.ID); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, actor, audit.BrandUpdate, audit.TargetUser, actor.ID, brandSnapshot(before), brandSnapshot(after))
	})
	return after, err
}

// SetLogo checks an uploaded logo by content (brand.CheckLogo), stores its
// re-encoded image under a fresh server-chosen name, records it (audited)
// and removes the file it replaces.
func (b *Brands) SetLogo(ctx context.Context, actor *user.User, body io.Reader) (brand.Brand, error) {
	if err := requireReseller(actor); err != nil {
		return brand.Brand{}, err
	}
	raw, err := io.ReadAll(io.LimitReader(body, brand.MaxLogoBytes+1))
	if err != nil {
		return brand.Brand{}, fmt.Errorf("read logo: %w", err)
	}
	logo, err := brand.CheckLogo(raw)
	if err != nil {
		return brand.Brand{}, err
	}
	if b.files == nil {
		return brand.Brand{}, errors.New("save logo: no file storage configured")
	}
	now := b.now().UTC()
	name := fmt.Sprintf("logo%d%d.%s", actor.ID, now.UnixNano(), logo.Ext)
	if err := b.files.Save(ctx, name, bytes.NewReader(logo.Body)); err != nil {
		return brand.Brand{}, fmt.Errorf("save logo: %w", err)
	}
	prev, after, err := b.setLogo(ctx, actor, name, logo.ContentType, now, audit.BrandLogoSet)
	if err != nil {
		_ = b.files.Delete(ctx, name)
		return brand.Brand{}, err
	}
	b.dropFile(ctx, prev)
	return after, nil
}

// DeleteLogo removes the actor's logo (audited); none is no error.
func (b *Brands) DeleteLogo(ctx context.Context, actor *user.User) error {
	if err := requireReseller(actor); err != nil {
		return err
	}
	prev, _, err := b.setLogo(ctx, actor, "", "", b.now().UTC(), audit.BrandLogoDelete)
	if err != nil {
		return err
	}
	b.dropFile(ctx, prev)
	return nil
}

// setLogo records the logo's file (or none) and its audit entry in one
// transaction; it returns the file name replaced and the brand after.
func (b *Brands) setLogo(ctx context.Context, actor *user.User, name, contentType string, now time.Time, action string) (string, brand.Brand, error) {
	var prev string
	var after brand.Brand
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.Brands.Get(ctx, actor.ID)
		if err != nil {
			return err
		}
		if prev, err = s.Brands.SetLogo(ctx, actor.ID, name, contentType, now); err != nil {
			return err
		}
		if after, err = s.Brands.Get(ctx, actor.ID); err != nil {
			return err
		}
		if name == "" && prev == "" {
			return nil // nothing removed, nothing to record
		}
		return store.Record(ctx, s.Audit, now, actor, action, audit.TargetUser, actor.ID, brandSnapshot(before), brandSnapshot(after))
	})
	return prev, after, err
}

// dropFile deletes a replaced logo; a failure leaves an orphan file, never a
// wrong answer.
func (b *Brands) dropFile(ctx context.Context, name string) {
	if name != "" && b.files != nil {
		_ = b.files.Delete(ctx, name)
	}
}

// Public is the brand a host shows before sign-in.
type Public struct {
	brand.Brand
	Reseller bool // false: the platform's own brand
}

// ResellerOfHost is the reseller whose brand a request's Host header shows:
// one of its verified domains, held by an account that is a reseller and
// active. ok is false for any other host (a claim not yet proven too).
func (b *Brands) ResellerOfHost(ctx context.Context, hostHeader string) (id uint64, ok bool, err error) {
	host := brand.NormalizeHost(hostHeader)
	if host == "" || host == b.platform {
		return 0, false, nil
	}
	id, err = b.store.ResellerOfHost(ctx, host)
	if errs.KindOf(err) == errs.NotFound {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	u, err := b.users.ByID(ctx, id)
	if errs.KindOf(err) == errs.NotFound {
		return 0, false, nil
	} else if err != nil {
		return 0, false, err
	}
	if u.Role != user.RoleReseller || u.IsDeleted() || u.Status != user.StatusActive {
		return 0, false, nil
	}
	return id, true, nil
}

// ForHost is the brand a host shows: its reseller's, or the platform's.
func (b *Brands) ForHost(ctx context.Context, hostHeader string) (Public, error) {
	id, ok, err := b.ResellerOfHost(ctx, hostHeader)
	if err != nil {
		return Public{}, err
	}
	if ok {
		br, err := b.store.Get(ctx, id)
		if err != nil {
			return Public{}, err
		}
		if br.Name != "" {
			return Public{Brand: br, Reseller: true}, nil
		}
	}
	return Public{Brand: brand.Brand{Name: b.cfg.PlatformName}}, nil
}

// LogoForHost opens the logo of a host's reseller; brand.ErrNoLogo when there is
// none. The caller closes it.
func (b *Brands) LogoForHost(ctx context.Context, hostHeader string) (io.ReadCloser, string, error) {
	p, err := b.ForHost(ctx, hostHeader)
	if err != nil {
		return nil, "", err
	}
	if !p.Reseller {
		return nil, "", brand.ErrNoLogo
	}
	return b.open(ctx, p.Brand)
}

// Logo opens the actor's own logo (its brand page's preview); brand.ErrNoLogo
// when it has none. The caller closes it.
func (b *Brands) Logo(ctx context.Context, actor *user.User) (io.ReadCloser, string, error) {
	br, err := b.Get(ctx, actor)
	if err != nil {
		return nil, "", err
	}
	return b.open(ctx, br)
}

func (b *Brands) open(ctx context.Context, br brand.Brand) (io.ReadCloser, string, error) {
	if !br.HasLogo() || b.files == nil {
		return nil, "", brand.ErrNoLogo
	}
	rc, err := b.files.Open(ctx, br.LogoPath)
	if errs.KindOf(err) == errs.NotFound {
		return nil, "", brand.ErrNoLogo
	} else if err != nil {
		return nil, "", fmt.Errorf("open logo: %w", err)
	}
	return rc, br.LogoType, nil
}
