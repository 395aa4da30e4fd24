package client_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGeneratedClientIsCurrent runs the go:generate command (doc.go) into
// a temporary folder and fails when its output differs from the committed
// client.gen.go: after editing api/openapi.yaml, run `go generate ./client`.
func TestGeneratedClientIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: running oapi-codegen takes a few seconds")
	}
	config, _ := filepath.Abs("oapi-codegen.yaml")
	spec, _ := filepath.Abs(filepath.Join("..", "api", "openapi.yaml"))
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2", "-config", config, spec)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, out)
	}
	fresh, err := os.ReadFile(filepath.Join(dir, "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fresh, committed) {
		t.Fatal("client/client.gen.go is stale: api/openapi.yaml changed since it was generated. Run `go generate ./client` and commit it.")
	}
}

// anyJSONFloat: the only floats allowed, the number branch of "any JSON
// value" (a call's data, a hit's payloads), which never carry money.
var anyJSONFloat = regexp.MustCompile(`^type (CallEnvelopeData|HitLogRequestPayload|HitLogResponsePayload)[0-9]+ = float(32|64)$`)

// TestNoMoneyAsFloat: money in the generated types is a string; a float
// anywhere else in client.gen.go fails.
func TestNoMoneyAsFloat(t *testing.T) {
	src, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		code, _, _ := strings.Cut(strings.TrimSpace(line), "//")
		if strings.Contains(code, "float32") || strings.Contains(code, "float64") {
			if !anyJSONFloat.MatchString(strings.TrimSpace(code)) {
				t.Errorf("client.gen.go:%d uses floating point: %s", i+1, line)
			}
		}
	}
}
