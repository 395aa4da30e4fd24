package sensitive_test

import (
	"testing"

	"paygate/core/platform/sensitive"
)

func TestMaskKeepsTheLastFourCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"123412341234": "XXXXXXXX1234",
		"ABCDE1234F":   "XXXXXX234F",
		"12345":        "X2345",
		"1234":         "XXXX",
		"12":           "XX",
		"":             "",
		"नमस्ते12345":  "XXXXXXX2345", // characters, not bytes
	} {
		if got := sensitive.Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestScrubMasksEchoedValues(t *testing.T) {
	got := sensitive.Scrub(`{"aadhaar":"123412341234","note":"for 123412341234","pin":"1234"}`, []string{"123412341234", "1234"})
	want := `{"aadhaar":"XXXXXXXX1234","note":"for XXXXXXXX1234","pin":"1234"}`
	if got != want {
		t.Errorf("Scrub = %s, want %s", got, want)
	}
}

func TestFoldNameIgnoresCaseSeparatorsAndWidth(t *testing.T) {
	for _, in := range []string{"aadhaar_number", "Aadhaar_Number", "aadhaar-number", "AADHAAR NUMBER", "aadhaarNumber",
		" aadhaar.number ", "ａａｄｈａａｒ＿ｎｕｍｂｅｒ", "AADHAAR\tNUMBER"} {
		if got := sensitive.FoldName(in); got != "aadhaarnumber" {
			t.Errorf("FoldName(%q) = %q", in, got)
		}
	}
	if sensitive.FoldName("aadhaar") == sensitive.FoldName("aadhaar_number") {
		t.Error("a different name folds to the same")
	}
}
