package catalog_test

import (
	"encoding/json"
	"go/format"
	"regexp"
	"strings"
	"testing"

	"paygate/core/catalog"
)

func strp(s string) *string { return &s }
func intp(n int) *int       { return &n }

// TestSamples: each language sends the service's method to its URL with the
// right credentials and its parameters in the query (GET, DELETE) or a JSON
// body (POST, PUT), with example values from the documentation record.
func TestSamples(t *testing.T) {
	sms := map[string]catalog.ParamSpec{
		"phone":    {Type: "string", Required: true, Pattern: strp(`^[0-9]{10}$`)},
		"message":  {Type: "string", Required: true, MaxLength: intp(5)},
		"priority": {Type: "integer", Required: true},
		"channel":  {Type: "string", Required: true, Pattern: strp(`^(sms|flash)$`)},
		"note":     {Type: "string"}, // optional: left out when something is required
	}
	payout := map[string]catalog.ParamSpec{
		"beneficiary.type": {Type: "string", Required: true}, "beneficiary.name": {Type: "string", Required: true},
		"amount": {Type: "number", Required: true}, "reference_id": {Type: "string", Required: true},
	}
	cases := []struct {
		name   string
		call   catalog.SampleCall
		want   map[string][]string // language → substrings
		absent []string            // in no language
	}{
		{
			name: "POST with a JSON body and key headers",
			call: catalog.SampleCall{URL: "https://pay.example.com/api/v1/sms", Method: "post", Params: sms},
			want: map[string][]string{
				catalog.SampleCurl: {`curl -sS -X POST 'https://pay.example.com/api/v1/sms'`, `-H 'X-API-Key: YOUR_API_KEY'`,
					`-H 'X-API-Secret: YOUR_API_SECRET'`, `-H 'Content-Type: application/json'`, `"phone": "9876543210"`,
					`"message": "Hello"`, `"priority": 1`, `"channel": "sms"`},
				catalog.SamplePython: {"import requests", `requests.request(`, `"POST"`, `"https://pay.example.com/api/v1/sms"`,
					`"X-API-Key": "YOUR_API_KEY"`, `"X-API-Secret": "YOUR_API_SECRET"`, `json={`, `"priority": 1,`, `"channel": "sms",`},
				catalog.SampleNode: {`await fetch(url, {`, `method: "POST"`, `new URL("https://pay.example.com/api/v1/sms")`,
					`"X-API-Key": "YOUR_API_KEY"`, `"X-API-Secret": "YOUR_API_SECRET"`, `body: JSON.stringify({`, `"phone": "9876543210",`},
				catalog.SamplePHP: {`<?php`, `curl_init('https://pay.example.com/api/v1/sms')`, `CURLOPT_CUSTOMREQUEST => 'POST'`,
					`'X-API-Key: YOUR_API_KEY'`, `'X-API-Secret: YOUR_API_SECRET'`, `CURLOPT_POSTFIELDS => '{`, `"message": "Hello"`},
				catalog.SampleGo: {`http.NewRequest("POST", "https://pay.example.com/api/v1/sms", body)`,
					`req.Header.Set("X-API-Key", "YOUR_API_KEY")`, `req.Header.Set("X-API-Secret", "YOUR_API_SECRET")`,
					`req.Header.Set("Content-Type", "application/json")`, `"priority": 1`},
			},
			absent: []string{"note", "Authorization", "sms?"},
		},
		{
			name: "GET with a query string",
			call: catalog.SampleCall{URL: "http://localhost:8080/api/v1/weather", Method: "GET", Params: map[string]catalog.ParamSpec{
				"city": {Type: "string"}, "days": {Type: "integer"}, "metric": {Type: "boolean"}, "on": {Type: "date"},
			}},
			want: map[string][]string{
				catalog.SampleCurl:   {`curl -sS -X GET 'http://localhost:8080/api/v1/weather?city=example&days=1&metric=true&on=1990-01-01'`, `X-API-Key`},
				catalog.SamplePython: {`"GET"`, `params={`, `"city": "example",`, `"days": "1",`, `"metric": "true",`},
				catalog.SampleNode:   {`url.search = new URLSearchParams({`, `"on": "1990-01-01",`, `method: "GET"`},
				catalog.SamplePHP:    {`curl_init('http://localhost:8080/api/v1/weather?city=example&days=1&metric=true&on=1990-01-01')`, `'GET'`},
				catalog.SampleGo:     {`http.NewRequest("GET", "http://localhost:8080/api/v1/weather?city=example&days=1&metric=true&on=1990-01-01", nil)`},
			},
			absent: []string{"Content-Type", "json=", "JSON.stringify", "POSTFIELDS", "strings.NewReader"},
		},
		{
			name: "a gateway service: Bearer secret, nested members, money as a string",
			call: catalog.SampleCall{URL: "http://localhost:8080/api/v1/payout/transfer", Method: "POST", Params: payout, Gateway: true},
			want: map[string][]string{
				catalog.SampleCurl:   {`-H 'Authorization: Bearer YOUR_API_SECRET'`, `"beneficiary": {`, `"amount": "100.00"`},
				catalog.SamplePython: {`"Authorization": "Bearer YOUR_API_SECRET"`, `"beneficiary": {`, `"amount": "100.00",`},
				catalog.SampleNode:   {`"Authorization": "Bearer YOUR_API_SECRET"`, `"beneficiary": {`},
				catalog.SamplePHP:    {`'Authorization: Bearer YOUR_API_SECRET'`},
				catalog.SampleGo:     {`req.Header.Set("Authorization", "Bearer YOUR_API_SECRET")`},
			},
			absent: []string{"X-API-Key", "beneficiary.type"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := catalog.Samples(tc.call)
			if len(got) != len(catalog.SampleLanguages) {
				t.Fatalf("%d samples, want %d", len(got), len(catalog.SampleLanguages))
			}
			for _, lang := range catalog.SampleLanguages {
				code := got[lang]
				for _, w := range tc.want[lang] {
					if !strings.Contains(code, w) {
						t.Errorf("%s sample lacks %q:\n%s", lang, w, code)
					}
				}
				for _, a := range tc.absent {
					if strings.Contains(code, a) {
						t.Errorf("%s sample has %q:\n%s", lang, a, code)
					}
				}
			}
			// The Go sample is gofmt-formatted Go.
			if src, err := format.Source([]byte(got[catalog.SampleGo])); err != nil {
				t.Errorf("Go sample does not parse: %v\n%s", err, got[catalog.SampleGo])
			} else if string(src) != got[catalog.SampleGo] {
				t.Errorf("Go sample is not gofmt-formatted:\n%s", got[catalog.SampleGo])
			}
			// curl's body is JSON.
			if m := regexp.MustCompile(`(?s)-d '(.*)'\n$`).FindStringSubmatch(got[catalog.SampleCurl]); m != nil {
				var v map[string]any
				if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
					t.Errorf("curl body is not JSON: %v", err)
				}
			}
		})
	}
}

func TestSampleQuoting(t *testing.T) {
	got := catalog.Samples(catalog.SampleCall{URL: "http://x/api/v1/q", Method: "POST", Params: map[string]catalog.ParamSpec{
		"it's": {Type: "string", Required: true},
	}})
	if !strings.Contains(got[catalog.SampleCurl], `"it'\''s": "example"`) {
		t.Errorf("curl does not escape a quote:\n%s", got[catalog.SampleCurl])
	}
	if !strings.Contains(got[catalog.SamplePHP], `"it\'s": "example"`) {
		t.Errorf("PHP does not escape a quote:\n%s", got[catalog.SamplePHP])
	}
}

func TestExampleValue(t *testing.T) {
	cases := []struct {
		name string
		spec catalog.ParamSpec
		want any
	}{
		{"amount", catalog.ParamSpec{Type: "number"}, "100.00"},
		{"ratio", catalog.ParamSpec{Type: "number"}, json.Number("1.5")},
		{"count", catalog.ParamSpec{Type: "integer"}, json.Number("1")},
		{"beneficiary.ifsc", catalog.ParamSpec{Type: "string"}, "HDFC0001234"},
		{"code", catalog.ParamSpec{Type: "string", MaxLength: intp(3)}, "exa"},
		{"kind", catalog.ParamSpec{Type: "string", Pattern: strp(`^(?:upi|imps)$`)}, "upi"},
		{"dob", catalog.ParamSpec{Type: "date"}, "1990-01-01"},
	}
	for _, tc := range cases {
		if got := catalog.ExampleValue(tc.name, tc.spec); got != tc.want {
			t.Errorf("ExampleValue(%s) = %#v, want %#v", tc.name, got, tc.want)
		}
	}
}
