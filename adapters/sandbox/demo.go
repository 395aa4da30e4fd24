package sandbox

import (
	"encoding/json"

	"github.com/shopspring/decimal"

	"paygate/core/catalog"
)

// DemoService is a documented service served by the sandbox provider,
// registered at first start when DEMO_DATA is on. Prices are decimal
// strings in the pricing columns' places.
type DemoService struct {
	Name, Slug, Category, Description, Method, ProviderURL string
	Parameters                                             map[string]string // name → type
	Doc                                                    DemoDoc
	UserPrice, ResellerPrice, AdminCost, MinimumHitCharge  string
}

// DemoDoc is the service's documentation record.
type DemoDoc struct {
	Endpoint, Method, Description string
	RequestParams                 map[string]catalog.ParamSpec
	ResponseExample               map[string]any
	ErrorCodes                    map[string]string
}

// DemoServices returns the four documented demo services (README.md here),
// each pointing at the sandbox provider.
func DemoServices() []DemoService {
	out := []DemoService{
		{
			Name: "Aadhaar Print API", Slug: "aadhaar-print-api", Category: "identity", Method: "POST",
			Description: "Queue a printed Aadhaar card for delivery.",
			ProviderURL: "sandbox://aadhaar-print",
			Doc: doc("/api/v1/aadhaar-print-api", "POST",
				"Queues an Aadhaar card print. Answers the print job id, its status and the estimated time.",
				map[string]catalog.ParamSpec{
					"aadhaar_number": secret(str(true, "12-digit Aadhaar number", 12, `^[0-9]{12}$`)),
					"name":           str(true, "Name as printed on the card", 255, ""),
					"phone":          str(true, "10-digit mobile number", 10, `^[0-9]{10}$`),
					"address":        str(false, "Delivery address", 500, ""),
				},
				sample(aadhaarPrint, params{"aadhaar_number": "123412341234", "name": "Asha Verma", "phone": "9876543210"})),
			UserPrice: "2.0000", ResellerPrice: "1.5000", AdminCost: "1.0000", MinimumHitCharge: "0.00",
		},
		{
			Name: "PAN Card Print API", Slug: "pan-card-print-api", Category: "identity", Method: "POST",
			Description: "Queue a printed PAN card for delivery.",
			ProviderURL: "sandbox://pan-card-print",
			Doc: doc("/api/v1/pan-card-print-api", "POST",
				"Queues a PAN card print. Answers the print job id, its status and the estimated time.",
				map[string]catalog.ParamSpec{
					"pan_number":  secret(str(true, "10-character PAN, e.g. ABCDE1234F", 10, `^[A-Z]{5}[0-9]{4}[A-Z]$`)),
					"name":        str(true, "Name as printed on the card", 255, ""),
					"dob":         {Type: "date", Required: true, Description: ptr("Date of birth, YYYY-MM-DD")},
					"father_name": str(false, "Father's name", 255, ""),
				},
				sample(panCardPrint, params{"pan_number": "ABCDE1234F", "name": "Asha Verma", "dob": "1990-04-01"})),
			UserPrice: "2.0000", ResellerPrice: "1.5000", AdminCost: "1.0000", MinimumHitCharge: "0.00",
		},
		{
			Name: "SMS Gateway API", Slug: "sms-gateway-api", Category: "messaging", Method: "POST",
			Description: "Send a transactional SMS from a pre-approved template.",
			ProviderURL: "sandbox://sms-gateway",
			Doc: doc("/api/v1/sms-gateway-api", "POST",
				"Sends an SMS. Answers the message id, its status and its delivery status.",
				map[string]catalog.ParamSpec{
					"phone":       str(true, "10-digit mobile number", 10, `^[0-9]{10}$`),
					"message":     str(true, "Message text", 160, ""),
					"template_id": str(true, "Pre-approved template id", 100, ""),
				},
				sample(smsGateway, params{"phone": "9876543210", "message": "Your OTP is 123456", "template_id": "TPL_OTP_01"})),
			UserPrice: "0.2500", ResellerPrice: "0.2000", AdminCost: "0.1000", MinimumHitCharge: "0.00",
		},
		{
			Name: "UPI Verification API", Slug: "upi-verification-api", Category: "verification", Method: "GET",
			Description: "Check a UPI id and return the account holder's name and bank.",
			ProviderURL: "sandbox://upi-verification",
			Doc: doc("/api/v1/upi-verification-api", "GET",
				"Verifies a UPI id (query parameter). Answers the account holder, the bank and whether the id is verified.",
				map[string]catalog.ParamSpec{
					"upi_id": str(true, "UPI id, e.g. name@okaxis", 255, ""),
				},
				sample(upiVerification, params{"upi_id": "asha.verma@okaxis"})),
			UserPrice: "1.0000", ResellerPrice: "0.7500", AdminCost: "0.5000", MinimumHitCharge: "0.00",
		},
	}
	for i := range out {
		d := &out[i]
		d.Parameters = map[string]string{}
		for name, spec := range d.Doc.RequestParams {
			d.Parameters[name] = spec.Type
		}
		// The example shows what a user with 100.00 pays for one call.
		charge := decimal.RequireFromString(d.UserPrice).Round(2)
		d.Doc.ResponseExample["charged"] = charge.StringFixed(4)
		d.Doc.ResponseExample["balance_left"] = decimal.NewFromInt(100).Sub(charge).StringFixed(2)
	}
	return out
}

// errorCodes are the service endpoints' errors (docs/decisions.md, "Order of
// checks and the error body").
func errorCodes() map[string]string {
	return map[string]string{
		"401": "Invalid API credentials",
		"402": "Insufficient balance",
		"403": "IP not whitelisted",
		"404": "Service not found",
		"422": "Invalid parameters",
		"429": "Daily limit exceeded",
		"500": "Service error",
	}
}

// doc builds the documentation record; its response example is the success
// envelope around data.
func doc(endpoint, method, description string, rp map[string]catalog.ParamSpec, data map[string]any) DemoDoc {
	return DemoDoc{
		Endpoint: endpoint, Method: method, Description: description, RequestParams: rp,
		ResponseExample: map[string]any{
			"success":    true,
			"request_id": "req_01JC4ZQ8X2M5T7V9W1Y3A6B8D0",
			"data":       data,
		},
		ErrorCodes: errorCodes(),
	}
}

// sample is what the sandbox answers for an example input, as JSON values.
func sample(svc service, p params) map[string]any {
	data, bad := svc(p)
	if bad != "" {
		panic("sandbox: bad example input: " + string(bad))
	}
	b, err := json.Marshal(data)
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return m
}

func str(required bool, description string, maxLength int, pattern string) catalog.ParamSpec {
	s := catalog.ParamSpec{Type: "string", Required: required, Description: ptr(description), MaxLength: &maxLength}
	if pattern != "" {
		s.Pattern = &pattern
	}
	return s
}

// secret marks a parameter sensitive: stored and shown masked.
func secret(s catalog.ParamSpec) catalog.ParamSpec {
	s.Sensitive = true
	return s
}

func ptr[T any](v T) *T { return &v }
