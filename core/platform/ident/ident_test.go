package ident_test

import (
	"testing"

	"paygate/core/platform/ident"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(string) bool
		ok    []string
		bad   []string
	}{
		{"account number", ident.AccountNumber, []string{"123456789", "123456789012345678"}, []string{"", "12345678", "1234567890123456789", "12345678a"}},
		{"IFSC", ident.IFSC, []string{"HDFC0001234", "SBIN0ABC123"}, []string{"", "HDFC1001234", "hdfc0001234", "HDFC000123"}},
		{"Aadhaar", ident.Aadhaar, []string{"234567890123", "999999999999"}, []string{"", "123456789012", "034567890123", "23456789012"}},
		{"mobile", ident.Mobile, []string{"9876543210", "6000000000"}, []string{"", "5876543210", "987654321", "+919876543210"}},
		{"reference", ident.Reference, []string{"a", "ord-1.2_3:4"}, []string{"", "has space", "x/y", string(make([]byte, 65))}},
	} {
		for _, s := range c.ok {
			if !c.check(s) {
				t.Errorf("%s %q refused", c.name, s)
			}
		}
		for _, s := range c.bad {
			if c.check(s) {
				t.Errorf("%s %q accepted", c.name, s)
			}
		}
	}
}
