// Package einvoicetest checks JSON against the e-invoice schema kept in
// the repository (api/einvoice/einvoice-schema-1.1.json), with
// github.com/santhosh-tekuri/jsonschema/v6. For tests only.
package einvoicetest

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"paygate/api"
)

const schemaURL = "file:///api/einvoice/einvoice-schema-1.1.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(api.EInvoiceSchema))
	if err != nil {
		return nil, fmt.Errorf("read the e-invoice schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("add the e-invoice schema: %w", err)
	}
	return c.Compile(schemaURL)
})

// Validate reports how raw breaks the e-invoice schema 1.1 (nil: it
// does not).
func Validate(raw []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("e-invoice JSON: %w", err)
	}
	return s.Validate(v)
}
