package main

import (
	"github.com/shopspring/decimal"

	"paygate/adapters/sandbox"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
)

// demoSeeds turns the sandbox's documented services into service records
// with docs and default prices (DEMO_DATA).
func demoSeeds() []catalog.Seed {
	var out []catalog.Seed
	for _, d := range sandbox.DemoServices() {
		desc := d.Description
		out = append(out, catalog.Seed{
			Service: catalog.Service{
				Name: d.Name, Slug: d.Slug, Category: d.Category, Description: &desc, Method: d.Method,
				ProviderURL: d.ProviderURL, Parameters: d.Parameters, Status: catalog.StatusActive,
			},
			Doc: &catalog.Doc{
				Endpoint: d.Doc.Endpoint, Method: d.Doc.Method, Description: d.Doc.Description,
				RequestParams: d.Doc.RequestParams, ResponseExample: d.Doc.ResponseExample, ErrorCodes: d.Doc.ErrorCodes,
			},
			Price: pricing.Price{
				AdminCost: decimal.RequireFromString(d.AdminCost), UserPrice: decimal.RequireFromString(d.UserPrice),
				ResellerPrice: decimal.RequireFromString(d.ResellerPrice), MinimumHitCharge: decimal.RequireFromString(d.MinimumHitCharge),
				Status: pricing.StatusActive,
			},
		})
	}
	return out
}
