package panel

import (
	"context"
	"time"

	"paygate/core/audit"
	"paygate/core/catalog"
	"paygate/core/ledger"
	"paygate/core/money"
	"paygate/core/pricing"
	"paygate/core/topup"
	"paygate/core/user"
)

// ListAudit lists audit entries, newest first (admin only).
func (p *Panel) ListAudit(ctx context.Context, actor *user.User, f audit.Filter) ([]audit.Entry, int64, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, 0, err
	}
	return p.st.Audit.List(ctx, f)
}

// Audit snapshots: what an entry shows of a record. They name their fields
// one by one, so a secret (password hash, webhook secret, provider key, key
// secret) can never slip in when an entity grows a field.

type userAudit struct {
	Name            string  `json:"name"`
	Email           string  `json:"email"`
	Phone           string  `json:"phone"`
	Role            string  `json:"role"`
	Status          string  `json:"status"`
	Plan            string  `json:"plan"`
	Balance         string  `json:"balance"`
	WebhookURL      *string `json:"webhook_url"`
	LowBalanceAlert *string `json:"low_balance_alert"`
	// CollectionFeePercent is the account's collection fee, in percent.
	CollectionFeePercent string `json:"collection_fee_percent"`
	DailyPayoutLimit     string `json:"daily_payout_limit"`
	Deleted              bool   `json:"deleted"`
}

func userSnapshot(u *user.User) userAudit {
	s := userAudit{
		Name: u.Name, Email: u.Email, Phone: u.Phone, Role: string(u.Role), Status: string(u.Status),
		Plan: string(u.Plan), Balance: money.Format2(u.Balance), WebhookURL: u.WebhookURL, Deleted: u.IsDeleted(),
		CollectionFeePercent: money.Format2(u.CollectionFeePercent), DailyPayoutLimit: money.Format2(u.DailyPayoutLimit),
	}
	if u.LowBalanceAlert != nil {
		v := money.Format2(*u.LowBalanceAlert)
		s.LowBalanceAlert = &v
	}
	return s
}

type serviceAudit struct {
	Name           string  `json:"name"`
	Slug           string  `json:"slug"`
	Description    *string `json:"description"`
	Category       string  `json:"category"`
	ProviderURL    string  `json:"provider_url"`
	ProviderKeySet bool    `json:"provider_key_set"` // the key itself is never recorded
	// ProviderKeyChanged marks an update that replaced or cleared the key.
	ProviderKeyChanged bool              `json:"provider_key_changed,omitempty"`
	Method             string            `json:"method"`
	Headers            map[string]string `json:"headers"`
	Parameters         map[string]string `json:"parameters"`
	Status             string            `json:"status"`
	SAC                *string           `json:"sac_code"`
}

func serviceSnapshot(s *catalog.Service) serviceAudit {
	return serviceAudit{
		Name: s.Name, Slug: s.Slug, Description: s.Description, Category: s.Category, ProviderURL: s.ProviderURL,
		ProviderKeySet: s.ProviderKey != nil && *s.ProviderKey != "", Method: s.Method,
		Headers: copyMap(s.Headers), Parameters: copyMap(s.Parameters), Status: string(s.Status),
		SAC: s.SAC,
	}
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

type docAudit struct {
	Endpoint      string                       `json:"endpoint"`
	Method        string                       `json:"method"`
	Description   string                       `json:"description"`
	RequestParams map[string]catalog.ParamSpec `json:"request_params"`
	ErrorCodes    map[string]string            `json:"error_codes"`
	SortOrder     int                          `json:"sort_order"`
}

func docSnapshot(d *catalog.Doc) *docAudit {
	if d == nil {
		return nil
	}
	return &docAudit{Endpoint: d.Endpoint, Method: d.Method, Description: d.Description,
		RequestParams: d.RequestParams, ErrorCodes: copyMap(d.ErrorCodes), SortOrder: d.SortOrder}
}

type priceAudit struct {
	ServiceID        uint64  `json:"api_service_id"`
	UserID           *uint64 `json:"user_id"`
	AdminCost        string  `json:"admin_cost"`
	UserPrice        string  `json:"user_price"`
	ResellerPrice    string  `json:"reseller_price"`
	MinimumHitCharge string  `json:"minimum_hit_charge"`
	Status           string  `json:"status"`
}

func priceSnapshot(p *pricing.Price) priceAudit {
	return priceAudit{
		ServiceID: p.ServiceID, UserID: p.UserID, AdminCost: money.Format4(p.AdminCost), UserPrice: money.Format4(p.UserPrice),
		ResellerPrice: money.Format4(p.ResellerPrice), MinimumHitCharge: money.Format2(p.MinimumHitCharge), Status: string(p.Status),
	}
}

type entryAudit struct {
	TxnID         string `json:"txn_id"`
	Type          string `json:"type"`
	Amount        string `json:"amount"`
	BalanceBefore string `json:"balance_before"`
	BalanceAfter  string `json:"balance_after"`
	Description   string `json:"description"`
}

func entrySnapshot(e *ledger.Entry) entryAudit {
	return entryAudit{TxnID: e.TxnID, Type: string(e.Type), Amount: money.Format2(e.Amount),
		BalanceBefore: money.Format2(e.BalanceBefore), BalanceAfter: money.Format2(e.BalanceAfter), Description: e.Description}
}

type topUpAudit struct {
	UserID        uint64     `json:"user_id"`
	Amount        string     `json:"amount"`
	UTRNumber     string     `json:"utr_number"`
	PaymentMethod string     `json:"payment_method"`
	Status        string     `json:"status"`
	ApprovedBy    *uint64    `json:"approved_by"`
	ApprovedAt    *time.Time `json:"approved_at"`
	AdminRemarks  *string    `json:"admin_remarks"`
}

func topUpSnapshot(r *topup.Request) topUpAudit {
	return topUpAudit{UserID: r.UserID, Amount: money.Format2(r.Amount), UTRNumber: r.UTRNumber, PaymentMethod: r.PaymentMethod,
		Status: string(r.Status), ApprovedBy: r.ApprovedBy, ApprovedAt: r.ApprovedAt, AdminRemarks: r.AdminRemarks}
}
