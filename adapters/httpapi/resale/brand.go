package resale

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
	"paygate/core/resale/storefront"
)

// maxLogoBody bounds a logo upload's whole multipart body: a 512 KB logo
// and its part headers.
const maxLogoBody = brand.MaxLogoBytes + 16<<10

var (
	// errLogoBusy is a logo upload while another of the same reseller runs
	// on this instance (logoUploads).
	errLogoBusy = errs.E(errs.LimitExceeded, "logo_upload_in_progress",
		"Another logo upload of yours is being processed; try again when it has finished")
	errLogoBodyTooLarge = errs.E(errs.TooLarge, "body_too_large", "Request body too large: a logo may be at most 512 KB")
	errNoBrands         = errs.E(errs.Unavailable, "brands_unavailable", "Brands are not available")
	errNoChallenge      = errs.E(errs.NotFound, "challenge_not_found", "No domain claim has this token on this host")
)

type brandRequest struct {
	BrandName    string   `json:"brand_name" validate:"max=400"`
	SupportEmail string   `json:"support_email" validate:"max=255"`
	SupportPhone string   `json:"support_phone" validate:"max=20"`
	Domains      []string `json:"domains" validate:"max=50,dive,max=300"`
}

type brandResponse struct {
	BrandName    string                `json:"brand_name"`
	SupportEmail string                `json:"support_email"`
	SupportPhone string                `json:"support_phone"`
	Domains      []string              `json:"domains"`
	DomainStates []domainStateResponse `json:"domain_states"`
	LogoURL      *string               `json:"logo_url"`
}

// domainStateResponse is one domain's proof: its state and what the
// reseller publishes to prove it.
type domainStateResponse struct {
	Host         string     `json:"host"`
	State        string     `json:"state"`
	TXTName      string     `json:"txt_name"`
	TXTValue     string     `json:"txt_value"`
	ChallengeURL string     `json:"challenge_url"`
	VerifiedAt   *time.Time `json:"verified_at"`
	CheckedAt    *time.Time `json:"checked_at"`
	Problem      *string    `json:"problem"`
}

// publicBrandResponse is the brand a host shows before sign-in.
type publicBrandResponse struct {
	BrandName    string  `json:"brand_name"`
	LogoURL      *string `json:"logo_url"`
	SupportEmail string  `json:"support_email"`
	SupportPhone string  `json:"support_phone"`
	Reseller     bool    `json:"reseller"`
}

// logoURL is where a logo is read, with its version so a cache never shows
// a replaced one.
func logoURL(path string, b brand.Brand) *string {
	if !b.HasLogo() {
		return nil
	}
	u := path + "?v=" + strconv.FormatInt(b.UpdatedAt.Unix(), 10)
	return &u
}

func toBrandResponse(bs *storefront.Brands, b brand.Brand) brandResponse {
	states := make([]domainStateResponse, 0, len(b.Domains))
	for _, d := range b.Domains {
		st := domainStateResponse{Host: d.Host, State: string(d.State), TXTName: brand.TXTName(d.Host), TXTValue: d.Token,
			ChallengeURL: bs.ChallengeURL(d), VerifiedAt: d.VerifiedAt, CheckedAt: d.CheckedAt}
		if d.Problem != "" && d.State == brand.DomainPending {
			st.Problem = &d.Problem
		}
		states = append(states, st)
	}
	return brandResponse{BrandName: b.Name, SupportEmail: b.SupportEmail, SupportPhone: b.SupportPhone, Domains: b.Hosts(),
		DomainStates: states, LogoURL: logoURL("/api/v1/panel/brand/logo", b)}
}

func (h *Handler) brands() (*storefront.Brands, error) {
	if h.app.Brands == nil {
		return nil, errNoBrands
	}
	return h.app.Brands, nil
}

func (h *Handler) GetBrand(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	b, err := bs.Get(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBrandResponse(bs, b))
}

func (h *Handler) PutBrand(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	var req brandRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	b, err := bs.Update(c.Request().Context(), web.Caller(c), brand.Input{Name: req.BrandName,
		SupportEmail: req.SupportEmail, SupportPhone: req.SupportPhone, Domains: req.Domains})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBrandResponse(bs, b))
}

// verifyBrandDomain checks the caller's claim on a domain (storefront.VerifyDomain).
func (h *Handler) VerifyBrandDomain(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	b, err := bs.VerifyDomain(c.Request().Context(), web.Caller(c), c.Param("host"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBrandResponse(bs, b))
}

// domainChallenge answers a claim's token on the host claimed: the proof,
// for the domain check, that the host reaches this service. 404 for a
// token no one claims on that Host.
func (h *Handler) DomainChallenge(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	token := c.Param("token")
	ok, err := bs.Challenge(c.Request().Context(), c.Request().Host, token)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if !ok {
		return errNoChallenge
	}
	return c.String(http.StatusOK, token)
}

// putBrandLogo reads a multipart/form-data body with one file part, logo.
// Its declared type and name are ignored: the content decides (brand.CheckLogo).
func (h *Handler) PutBrandLogo(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	req := c.Request()
	// Refuse anyone but a reseller before a byte of the upload is read.
	if _, err := bs.Get(req.Context(), web.Caller(c)); err != nil {
		return err
	}
	release, ok := h.logoUploads.take(web.Caller(c).ID)
	if !ok {
		c.Response().Header().Set("Retry-After", "2")
		return errLogoBusy
	}
	defer release()
	if mt, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMEMultipartForm {
		return web.ErrNotMultipart
	}
	if req.ContentLength > maxLogoBody {
		return errLogoBodyTooLarge
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, maxLogoBody)
	if err := req.ParseMultipartForm(maxLogoBody); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return errLogoBodyTooLarge
		}
		return web.ErrNotMultipart.Wrap(err)
	}
	form := req.MultipartForm
	defer form.RemoveAll()
	fe := errs.FieldErrors{}
	for name := range form.Value {
		fe.Add(name, "is not a known field")
	}
	for name, files := range form.File {
		switch {
		case name != "logo":
			fe.Add(name, "is not a known field")
		case len(files) > 1:
			fe.Add(name, "must be one file")
		}
	}
	if len(form.File["logo"]) == 0 {
		fe.Add("logo", "is required")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	f, err := form.File["logo"][0].Open()
	if err != nil {
		return fmt.Errorf("open uploaded logo: %w", err)
	}
	defer f.Close()
	b, err := bs.SetLogo(req.Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBrandResponse(bs, b))
}

// oneEach lets one operation per key run at a time on this instance: a
// logo upload (its body read, checked, decoded and re-encoded) holds its
// reseller's key, so one reseller cannot spend this instance's CPU and
// memory on many decodes at once. It guards an instance's resources, not a
// money rule, so it lives in memory (decisions: "Resellers: brand").
type oneEach struct {
	mu   sync.Mutex
	busy map[uint64]bool
}

func newOneEach() *oneEach { return &oneEach{busy: map[uint64]bool{}} }

// take holds key; false when it is held. release frees it.
func (o *oneEach) take(key uint64) (release func(), ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.busy[key] {
		return nil, false
	}
	o.busy[key] = true
	return func() {
		o.mu.Lock()
		delete(o.busy, key)
		o.mu.Unlock()
	}, true
}

func (h *Handler) DeleteBrandLogo(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	if err := bs.DeleteLogo(c.Request().Context(), web.Caller(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// getBrandLogo is the caller's own logo, for its brand page's preview.
func (h *Handler) GetBrandLogo(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	rc, typ, err := bs.Logo(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return serveLogo(c, rc, typ, "private, max-age=300")
}

// publicBrand is the brand of the request's Host: a reseller's on one of
// its domains, else the platform's.
func (h *Handler) PublicBrand(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	p, err := bs.ForHost(c.Request().Context(), c.Request().Host)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	c.Response().Header().Set("Vary", "Host")
	return c.JSON(http.StatusOK, publicBrandResponse{BrandName: p.Name, SupportEmail: p.SupportEmail, SupportPhone: p.SupportPhone,
		Reseller: p.Reseller, LogoURL: logoURL("/api/v1/brand/logo", p.Brand)})
}

// publicBrandLogo is the logo of the Host's reseller; 404 without one.
func (h *Handler) PublicBrandLogo(c echo.Context) error {
	bs, err := h.brands()
	if err != nil {
		return err
	}
	rc, typ, err := bs.LogoForHost(c.Request().Context(), c.Request().Host)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Vary", "Host")
	return serveLogo(c, rc, typ, "public, max-age=3600")
}

// serveLogo streams a stored logo: its own type (always an image the server
// encoded), never sniffed, never run as a document.
func serveLogo(c echo.Context, rc io.ReadCloser, typ, cache string) error {
	defer rc.Close()
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", cache)
	h.Set(echo.HeaderContentDisposition, "inline")
	return c.Stream(http.StatusOK, typ, rc)
}
