package brands

import "paygate/core/brand"

// brandAudit is what an audit entry shows of a brand, field by field.
type brandAudit struct {
	BrandName    string   `json:"brand_name"`
	SupportEmail string   `json:"support_email"`
	SupportPhone string   `json:"support_phone"`
	Domains      []string `json:"domains"`
	LogoType     string   `json:"logo_type"`
}

func brandSnapshot(b brand.Brand) brandAudit {
	return brandAudit{BrandName: b.Name, SupportEmail: b.SupportEmail, SupportPhone: b.SupportPhone, Domains: b.Domains, LogoType: b.LogoType}
}
