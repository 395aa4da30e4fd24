package storefront

import "paygate/core/resale/brand"

// brandAudit is what an audit entry shows of a brand, field by field.
type brandAudit struct {
	BrandName    string   `json:"brand_name"`
	SupportEmail string   `json:"support_email"`
	SupportPhone string   `json:"support_phone"`
	Domains      []string `json:"domains"`
	LogoType     string   `json:"logo_type"`
}

// domainAudit is what an audit entry shows of a verified domain.
type domainAudit struct {
	Host  string `json:"host"`
	State string `json:"state"`
	// By is "operator" when an operator verified it on its word
	// (VerifyDomainForOperator); empty for the reseller's own check.
	By string `json:"by,omitempty"`
}

func brandSnapshot(b brand.Brand) brandAudit {
	return brandAudit{BrandName: b.Name, SupportEmail: b.SupportEmail, SupportPhone: b.SupportPhone, Domains: b.Hosts(), LogoType: b.LogoType}
}
