package gst_test

import (
	"testing"

	"paygate/core/billing/gst"
)

func TestStateName(t *testing.T) {
	for code, want := range map[string]string{
		"01": "Jammu and Kashmir", "07": "Delhi", "26": "Dadra and Nagar Haveli and Daman and Diu",
		"27": "Maharashtra", "29": "Karnataka", "36": "Telangana", "37": "Andhra Pradesh", "38": "Ladakh",
		"97": "Other Territory",
	} {
		if got, ok := gst.StateName(code); !ok || got != want {
			t.Errorf("StateName(%q) = %q, %v; want %q", code, got, ok, want)
		}
	}
	// 25 and 28 are no longer in use; 99 is the Centre's jurisdiction, not
	// a place of supply.
	for _, code := range []string{"", "0", "1", "00", "25", "28", "39", "96", "98", "99", "001", "27 "} {
		if got, ok := gst.StateName(code); ok {
			t.Errorf("StateName(%q) = %q, want unknown", code, got)
		}
	}
}

func TestStates(t *testing.T) {
	list := gst.States()
	if len(list) != 37 {
		t.Fatalf("%d states and union territories, want 37 (01-38 less 25 and 28, and 97)", len(list))
	}
	for i, s := range list {
		if i > 0 && s.Code <= list[i-1].Code {
			t.Errorf("%s after %s: not in code order", s.Code, list[i-1].Code)
		}
		if name, ok := gst.StateName(s.Code); !ok || name != s.Name {
			t.Errorf("StateName(%s) = %q, %v; the list says %q", s.Code, name, ok, s.Name)
		}
	}
	list[0].Name = "changed"
	if name, _ := gst.StateName("01"); name != "Jammu and Kashmir" || gst.States()[0].Name != "Jammu and Kashmir" {
		t.Error("a caller's change to the list reached the table")
	}
}
