package main

import "testing"

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"20MB": 20 << 20, "512kB": 512 << 10, "512KB": 512 << 10, "1GB": 1 << 30,
		"1048576": 1 << 20, "2048B": 2048, " 3 MB ": 3 << 20} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1MB", "2GB", "512", "20 mb", "1.5MB", "MB"} {
		if _, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q) accepted", in)
		}
	}
}
