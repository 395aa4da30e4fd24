package catalogadmin

import (
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/inr"
)

// Audit snapshots: what an entry shows of a record. They name their fields
// one by one, so a secret (password hash, webhook secret, provider key, key
// secret) can never slip in when an entity grows a field.

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
		ServiceID: p.ServiceID, UserID: p.UserID, AdminCost: inr.Format4(p.AdminCost), UserPrice: inr.Format4(p.UserPrice),
		ResellerPrice: inr.Format4(p.ResellerPrice), MinimumHitCharge: inr.Format2(p.MinimumHitCharge), Status: string(p.Status),
	}
}
