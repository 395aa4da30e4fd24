package brand_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

func TestValidHost(t *testing.T) {
	cases := map[string]bool{
		"brand.example": true, "panel.acme-recharge.in": true, "xn--80ak6aa92e.com": true, "a.b.c.d.example": true,
		"": false, "localhost": false, "brand.example:8080": false, "https://brand.example": false,
		"brand.example/login": false, "127.0.0.1": false, "::1": false, "*.brand.example": false,
		"-brand.example": false, "brand-.example": false, "brand..example": false, "Brand.Example": false,
		"brand example.com": false, "1.2.3.4567": false, strings.Repeat("a", 64) + ".example": false,
		"brand_name.example": false,
	}
	for h, want := range cases {
		if got := brand.ValidHost(h); got != want {
			t.Errorf("ValidHost(%q) = %v, want %v", h, got, want)
		}
	}
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Brand.Example:8080": "brand.example", " brand.example. ": "brand.example", "BRAND.EXAMPLE": "brand.example",
		"[::1]:443": "::1", "brand.example": "brand.example",
	} {
		if got := brand.NormalizeHost(in); got != want {
			t.Errorf("NormalizeHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInputValidate(t *testing.T) {
	fields := func(err error) []string {
		var e *errs.Error
		if !errors.As(err, &e) {
			return nil
		}
		var out []string
		for f := range e.Fields {
			out = append(out, f)
		}
		slices.Sort(out)
		return out
	}
	eleven := make([]string, 11)
	for i := range eleven {
		eleven[i] = "d" + string(rune('a'+i)) + ".example"
	}
	cases := []struct {
		name string
		in   brand.Input
		bad  []string
	}{
		{"full", brand.Input{Name: " Acme ", SupportEmail: "Help@Acme.example", SupportPhone: "+919876543210", Domains: []string{"Acme.Example", "acme.example "}}, nil},
		{"name only", brand.Input{Name: "Acme"}, nil},
		{"no name", brand.Input{}, []string{"brand_name"}},
		{"name 101 characters", brand.Input{Name: strings.Repeat("é", 101)}, []string{"brand_name"}},
		{"name 100 characters", brand.Input{Name: strings.Repeat("é", 100)}, nil},
		{"markup in the name", brand.Input{Name: "<b>Acme</b>"}, []string{"brand_name"}},
		{"bad email", brand.Input{Name: "A", SupportEmail: "Acme <help@acme.example>"}, []string{"support_email"}},
		{"bad phone", brand.Input{Name: "A", SupportPhone: "12345"}, []string{"support_phone"}},
		{"url as domain", brand.Input{Name: "A", Domains: []string{"https://acme.example/"}}, []string{"domains"}},
		{"port in domain", brand.Input{Name: "A", Domains: []string{"acme.example:8080"}}, []string{"domains"}},
		{"platform's host", brand.Input{Name: "A", Domains: []string{"Pay.Example"}}, []string{"domains"}},
		{"eleven domains", brand.Input{Name: "A", Domains: eleven}, []string{"domains"}},
		{"ten domains", brand.Input{Name: "A", Domains: eleven[:10]}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.in.Validate("pay.example")
			if got := fields(err); !slices.Equal(got, c.bad) {
				t.Fatalf("bad fields %v (%v), want %v", got, err, c.bad)
			}
			if c.name == "full" && (out.Name != "Acme" || out.SupportEmail != "help@acme.example" || !slices.Equal(out.Domains, []string{"acme.example"})) {
				t.Fatalf("cleaned %+v", out)
			}
		})
	}
}

func TestDomainProofRules(t *testing.T) {
	tok := "pgv_0123456789abcdef0123456789abcdef"
	txt := []struct {
		records []string
		token   string
		want    bool
	}{
		{nil, tok, false},
		{[]string{"v=spf1 -all"}, tok, false},
		{[]string{"v=spf1 -all", tok}, tok, true},
		{[]string{` "` + tok + `" `}, tok, true},
		{[]string{tok + "x"}, tok, false},
		{[]string{""}, "", false},
	}
	for i, c := range txt {
		if got := brand.HasToken(c.records, c.token); got != c.want {
			t.Errorf("HasToken #%d = %v", i, got)
		}
	}
	answers := []struct {
		status int
		body   string
		want   bool
	}{
		{200, tok, true},
		{200, tok + "\n", true},
		{200, "ok", false},
		{404, tok, false},
		{301, "", false},
	}
	for i, c := range answers {
		if got := brand.AnswersChallenge(c.status, []byte(c.body), tok); got != c.want {
			t.Errorf("AnswersChallenge #%d = %v", i, got)
		}
	}
	if brand.AnswersChallenge(200, nil, "") {
		t.Error("an empty token is answered")
	}
	if a, b := brand.NewToken(), brand.NewToken(); a == b || len(a) != 36 {
		t.Errorf("NewToken %q %q", a, b)
	}
	if brand.TXTName("panel.acme.example") != "_paygate-verify.panel.acme.example" {
		t.Error("TXTName")
	}
}
