// Package api holds the service's OpenAPI document.
package api

import _ "embed"

// OpenAPI is api/openapi.yaml: every HTTP route with its schemas. A test in
// adapters/httpapi keeps it in step with the registered routes.
//
//go:embed openapi.yaml
var OpenAPI []byte

// EInvoiceSchema is api/einvoice/einvoice-schema-1.1.json: the government's
// e-invoice JSON schema, version 1.1, that GET /invoices/{id}/einvoice
// answers in (its README names the source).
//
//go:embed einvoice/einvoice-schema-1.1.json
var EInvoiceSchema []byte
