// Package api holds the service's OpenAPI document.
package api

import _ "embed"

// OpenAPI is api/openapi.yaml: every HTTP route with its schemas. A test in
// adapters/httpapi keeps it in step with the registered routes.
//
//go:embed openapi.yaml
var OpenAPI []byte
