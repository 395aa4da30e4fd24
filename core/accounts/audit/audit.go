// Package audit records what admins change, and what resellers change for
// their customers: who did which action to which
// record, the record before and after (without secrets), from which address
// and when. Entries are written in the same database transaction as the
// change they describe, so the log and the data never disagree.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Actions an admin can take. The names are stable: clients filter on them.
const (
	UserCreate            = "user.create"
	UserUpdate            = "user.update"
	UserActivate          = "user.activate"
	UserBlock             = "user.block"
	UserDelete            = "user.delete"
	BalanceAdjust         = "user.balance_adjust"
	ServiceCreate         = "service.create"
	ServiceUpdate         = "service.update"
	ServiceDelete         = "service.delete"
	DocPut                = "service.docs_put"
	PricingCreate         = "pricing.create"
	PricingUpdate         = "pricing.update"
	PricingDelete         = "pricing.delete"
	BalanceRequestApprove = "balance_request.approve"
	BalanceRequestReject  = "balance_request.reject"
	SubscriptionSet       = "subscription.set" // an admin's plan or price for an account
	PlanCreate            = "plan.create"
	PlanUpdate            = "plan.update"
)

// Target types.
const (
	TargetUser           = "user"
	TargetService        = "service"
	TargetPricing        = "pricing"
	TargetBalanceRequest = "balance_request"
	TargetPlan           = "plan"
)

// A reseller's actions on its customers (decisions "Resellers: customers and their scoping"): the customer
// actions target the user; a transfer targets its transfers row.
const (
	CustomerCreate   = "customer.create"
	CustomerBlock    = "customer.block"
	CustomerActivate = "customer.activate"
	CustomerLimits   = "customer.limits" // its daily payout limit or collection fee
	TransferCreate   = "transfer.create"
	TargetTransfer   = "transfer"
	// The owner of an unconfirmed customer's email, through the mailed
	// link: it accepts the reseller (confirm) or takes the account as its
	// own (detach). The actor is the account itself.
	CustomerConfirm = "customer.confirm"
	CustomerDetach  = "customer.detach"
)

// The invoices' supplier details: one record, so its entries name no
// target id.
const (
	BillingSettingsUpdate = "billing_settings.update"
	TargetBillingSettings = "billing_settings"
)

// An issuer records the e-invoice portal's answer for one of its
// documents (the platform's admin, or the reseller that issued it); the
// target is the invoice.
const (
	InvoiceIRNRecord = "invoice.irn_record"
	TargetInvoice    = "invoice"
)

// A reseller's selling prices (core/resale): a service's selling
// price targets the service; the default markup targets the reseller.
const (
	CustomerPriceSet    = "customer_price.set"
	CustomerPriceDelete = "customer_price.delete"
	CustomerMarkupSet   = "customer_markup.set"
)

// A reseller's brand (core/resale/storefront); the target is the reseller.
const (
	BrandUpdate     = "brand.update"
	BrandLogoSet    = "brand.logo_set"
	BrandLogoDelete = "brand.logo_delete"
	// BrandDomainVerify: a claimed domain proven (brands.VerifyDomain).
	BrandDomainVerify = "brand.domain_verify"
)

// Operator is the actor of an operator's command run beside the service
// (`server brand verify-domain`): no account, recorded as actor_id 0.
const Operator uint64 = 0

// Entry is one recorded action. Before and After are JSON snapshots of the
// target (nil when there is none: no before on create, no after on delete).
type Entry struct {
	ID         uint64
	ActorID    uint64
	Action     string
	TargetType string
	TargetID   *uint64
	Before     json.RawMessage
	After      json.RawMessage
	IPAddress  string
	RequestID  string
	CreatedAt  time.Time
}

// Source is where a request came from, carried in the context from the edge
// to the use case that writes the entry.
type Source struct {
	IPAddress string
	RequestID string
}

type sourceKey struct{}

// WithSource returns ctx carrying s.
func WithSource(ctx context.Context, s Source) context.Context {
	return context.WithValue(ctx, sourceKey{}, s)
}

// SourceFrom returns the Source in ctx, or the zero Source (an operator's
// command, a test).
func SourceFrom(ctx context.Context) Source {
	s, _ := ctx.Value(sourceKey{}).(Source)
	return s
}

// New builds an entry for actor's action on a target; before and after are
// snapshots (maps or structs with json tags, never entities carrying
// secrets) or nil.
func New(ctx context.Context, actorID uint64, action, targetType string, targetID uint64, before, after any, now time.Time) (*Entry, error) {
	e := &Entry{ActorID: actorID, Action: action, TargetType: targetType, CreatedAt: now.UTC()}
	if targetID != 0 {
		id := targetID
		e.TargetID = &id
	}
	var err error
	if e.Before, err = snapshot(before); err != nil {
		return nil, fmt.Errorf("audit %s before: %w", action, err)
	}
	if e.After, err = snapshot(after); err != nil {
		return nil, fmt.Errorf("audit %s after: %w", action, err)
	}
	src := SourceFrom(ctx)
	e.IPAddress, e.RequestID = src.IPAddress, src.RequestID
	return e, nil
}

func snapshot(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

// Filter selects entries in a list; zero values select everything.
type Filter struct {
	ActorID    *uint64
	Action     string
	TargetType string
	TargetID   *uint64
	From, To   *time.Time // inclusive bounds on created_at
	Page       int
	PerPage    int
}

// Repository stores entries.
type Repository interface {
	Add(ctx context.Context, e *Entry) error
	List(ctx context.Context, f Filter) ([]Entry, int64, error) // newest first
}
