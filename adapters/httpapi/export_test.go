package httpapi

import (
	"slices"
	"strings"

	"paygate/adapters/httpapi/web"
)

// PanelRoutes lists every registered panel route as "METHOD /path", with
// path parameters written {id} as in api/openapi.yaml. The authorization
// tests check that each has a row in their table.
func PanelRoutes() []string {
	var out []string
	for op := range registeredOperations(testServer()) {
		if _, path, _ := strings.Cut(op, " "); strings.HasPrefix(path, "/api/v1/panel/") {
			out = append(out, op)
		}
	}
	slices.Sort(out)
	return out
}

// QRPNG exposes the checkout's QR code encoder to the tests.
var QRPNG = web.QRPNG
