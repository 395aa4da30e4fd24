// Package catalog holds the resellable upstream services and their
// documentation, including the parameter rules calls are validated against.
//
// It is the catalog area: this package (the resellable services and
// their parameters), pricing (what a call costs) and catalogadmin (the
// catalog's panel use cases).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package catalog

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"time"

	"paygate/core/billing/gst"
	"paygate/core/platform/errs"
)

type Status string

const (
	StatusActive   Status = "active"
	StatusInactive Status = "inactive"
)

// Methods a service may use.
var Methods = []string{"GET", "POST", "PUT", "DELETE"}

// Service is an upstream API resold through /api/v1/<slug>.
type Service struct {
	ID          uint64
	Name        string
	Slug        string
	Description *string
	Category    string
	ProviderURL string
	ProviderKey *string // upstream credential: never leaves the server
	Method      string
	Headers     map[string]string
	Parameters  map[string]string // name → type name
	Status      Status
	Builtin     bool // gateway operations; cannot be deleted
	// SAC is the service's own GST service accounting code on invoices;
	// nil: the supplier's default (taxprofile.Supplier.SAC).
	SAC       *string
	CreatedAt time.Time
	UpdatedAt time.Time
}

var (
	ErrServiceNotFound = errs.E(errs.NotFound, "service_not_found", "Service not found")
	ErrSlugTaken       = errs.E(errs.Conflict, "slug_taken", "Slug is already used by another service")
	ErrBuiltin         = errs.E(errs.Conflict, "service_builtin", "Built-in gateway services cannot be deleted")
	ErrDocNotFound     = errs.E(errs.NotFound, "docs_not_found", "Service has no documentation")
)

// ReservedSlugs cannot name a service: they are paths of the service itself.
var ReservedSlugs = map[string]bool{
	"panel": true, "payment": true, "account": true, "recharge": true, "payout": true,
	"transaction": true, "pay": true, "docs": true, "health": true,
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
var headerName = regexp.MustCompile(`^[A-Za-z0-9-]{1,100}$`)

// ParamTypes are the type names parameters may have.
var ParamTypes = map[string]bool{"string": true, "integer": true, "number": true, "boolean": true, "date": true}

// Validate normalises and checks a service record.
func (s *Service) Validate() error {
	fe := errs.FieldErrors{}
	s.Name = strings.TrimSpace(s.Name)
	s.Slug = strings.TrimSpace(s.Slug)
	s.Category = strings.TrimSpace(s.Category)
	s.Method = strings.ToUpper(strings.TrimSpace(s.Method))
	if s.Method == "" {
		s.Method = "POST"
	}
	if s.Status == "" {
		s.Status = StatusActive
	}
	if s.Name == "" || len(s.Name) > 255 {
		fe.Add("name", "is required, at most 255 characters")
	}
	switch {
	case !slugPattern.MatchString(s.Slug) || len(s.Slug) > 255:
		fe.Add("slug", "must be lowercase letters, digits and single hyphens")
	case ReservedSlugs[s.Slug] && !s.Builtin:
		fe.Add("slug", "is reserved")
	}
	if s.Category == "" || len(s.Category) > 100 {
		fe.Add("category", "is required, at most 100 characters")
	}
	if !validMethod(s.Method) {
		fe.Add("method", "must be one of GET, POST, PUT, DELETE")
	}
	if s.Status != StatusActive && s.Status != StatusInactive {
		fe.Add("status", "must be active or inactive")
	}
	if len(s.ProviderURL) > 500 {
		fe.Add("provider_url", "must be at most 500 characters")
	} else if u, err := url.Parse(s.ProviderURL); err != nil || u.Host == "" && u.Scheme != "sandbox" ||
		(u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "sandbox" && u.Scheme != "builtin") {
		fe.Add("provider_url", "must be an http(s) URL")
	}
	if s.ProviderKey != nil && len(*s.ProviderKey) > 500 {
		fe.Add("provider_key", "must be at most 500 characters")
	}
	for name, v := range s.Headers {
		if !headerName.MatchString(name) || strings.ContainsAny(v, "\r\n") || len(v) > 2000 {
			fe.Add("headers", "header "+name+" is not a valid header")
		}
	}
	if s.SAC != nil {
		if sac := strings.TrimSpace(*s.SAC); sac == "" {
			s.SAC = nil
		} else if msg := gst.SACProblem(sac); msg != "" {
			fe.Add("sac_code", msg)
		} else {
			s.SAC = &sac
		}
	}
	for name, typ := range s.Parameters {
		if !ParamTypes[typ] || name == "" || len(name) > 100 {
			fe.Add("parameters", "parameter "+name+" must have a type of string, integer, number, boolean or date")
		}
	}
	return fe.Err()
}

func validMethod(m string) bool {
	for _, x := range Methods {
		if x == m {
			return true
		}
	}
	return false
}

// ParamSpec documents one request parameter.
type ParamSpec struct {
	Type        string  `json:"type"`
	Required    bool    `json:"required"`
	Description *string `json:"description,omitempty"`
	MaxLength   *int    `json:"max_length,omitempty"`
	Pattern     *string `json:"pattern,omitempty"`
	// Sensitive values are forwarded upstream in full but stored and shown
	// masked (sensitive.Mask) in hit logs, exports, events and logs.
	Sensitive bool `json:"sensitive,omitempty"`
}

// Doc is a service's documentation record.
type Doc struct {
	ID              uint64
	ServiceID       uint64
	Endpoint        string
	Method          string
	Description     string
	RequestParams   map[string]ParamSpec
	ResponseExample map[string]any
	ErrorCodes      map[string]string
	SortOrder       int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Validate checks a documentation record.
func (d *Doc) Validate() error {
	fe := errs.FieldErrors{}
	d.Method = strings.ToUpper(strings.TrimSpace(d.Method))
	if d.Endpoint == "" || len(d.Endpoint) > 255 {
		fe.Add("endpoint", "is required, at most 255 characters")
	}
	if !validMethod(d.Method) {
		fe.Add("method", "must be one of GET, POST, PUT, DELETE")
	}
	if strings.TrimSpace(d.Description) == "" {
		fe.Add("description", "is required")
	}
	if d.RequestParams == nil {
		fe.Add("request_params", "is required")
	}
	for name, p := range d.RequestParams {
		if !ParamTypes[p.Type] {
			fe.Add("request_params", "parameter "+name+" has an unknown type")
		}
		if p.MaxLength != nil && *p.MaxLength < 1 {
			fe.Add("request_params", "parameter "+name+" has a max_length below 1")
		}
		if p.Pattern != nil {
			if _, err := regexp.Compile(*p.Pattern); err != nil {
				fe.Add("request_params", "parameter "+name+" has an invalid pattern")
			}
		}
	}
	if d.ResponseExample == nil {
		fe.Add("response_example", "is required")
	}
	if d.ErrorCodes == nil {
		fe.Add("error_codes", "is required")
	}
	return fe.Err()
}

// Filter selects services in a list.
type Filter struct {
	Status   Status
	Category string
	Q        string
	Page     int
	PerPage  int
}

// Repository stores services and their docs. Delete removes the service's
// pricing rows and docs with it.
type Repository interface {
	Create(ctx context.Context, s *Service) error // Conflict: ErrSlugTaken
	ByID(ctx context.Context, id uint64) (*Service, error)
	// LockByID reads a service and locks its row until the transaction ends.
	LockByID(ctx context.Context, id uint64) (*Service, error)
	BySlug(ctx context.Context, slug string) (*Service, error)
	// ExistingIDs returns those of ids that name a service, in one query;
	// the caller bounds len(ids).
	ExistingIDs(ctx context.Context, ids []uint64) ([]uint64, error)
	List(ctx context.Context, f Filter) ([]Service, int64, error)
	Update(ctx context.Context, s *Service) error
	Delete(ctx context.Context, id uint64) error
	Doc(ctx context.Context, serviceID uint64) (*Doc, error) // ErrDocNotFound
	PutDoc(ctx context.Context, d *Doc) error                // insert or replace by service id
}
