package gateway

import "testing"

func TestIndianAmount(t *testing.T) {
	for in, want := range map[string]string{
		"0.50": "0.50", "999.00": "999.00", "1000.00": "1,000.00", "123456.50": "1,23,456.50",
		"12345678.00": "1,23,45,678.00", "100000": "1,00,000",
	} {
		if got := IndianAmount(in); got != want {
			t.Errorf("IndianAmount(%s) = %s, want %s", in, got, want)
		}
	}
}
