package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The deployment files are checked against the code and the Makefile they
// describe, so they cannot drift apart silently: the image is built by
// `make build`, the build context holds every file that build reads, and
// .env.example documents every setting the server reads and every variable
// docker-compose.yml takes.

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDockerfileBuildsWithTheMakeTarget: the build stage runs `make build`
// and compiles nothing by hand, and every file the final stage copies out
// of it is one `make build` writes (or one the stage creates itself).
func TestDockerfileBuildsWithTheMakeTarget(t *testing.T) {
	docker := readRepoFile(t, "Dockerfile")
	makefile := readRepoFile(t, "Makefile")

	if !regexp.MustCompile(`(?m)^RUN make build\b`).MatchString(docker) {
		t.Error("Dockerfile: the build stage does not RUN make build")
	}
	if regexp.MustCompile(`(?m)^RUN .*\bgo build\b`).MatchString(docker) {
		t.Error("Dockerfile: a RUN line calls go build itself instead of make build")
	}
	// make build's outputs: the -o paths of its recipe.
	recipe := regexp.MustCompile(`(?m)^build:.*\n((?:\t.*\n)+)`).FindStringSubmatch(makefile)
	if recipe == nil {
		t.Fatal("Makefile: no build target")
	}
	var outputs []string
	for _, m := range regexp.MustCompile(`-o (\S+)`).FindAllStringSubmatch(recipe[1], -1) {
		outputs = append(outputs, "/src/"+m[1])
	}
	made := regexp.MustCompile(`mkdir -p (\S+)`).FindAllStringSubmatch(docker, -1)
	for _, m := range regexp.MustCompile(`(?m)^COPY --from=build (?:--\S+ )*(\S+) `).FindAllStringSubmatch(docker, -1) {
		src := m[1]
		created := slices.ContainsFunc(made, func(d []string) bool { return d[1] == src || strings.HasPrefix(d[1], src+"/") })
		if !slices.Contains(outputs, src) && !created {
			t.Errorf("Dockerfile copies %s from the build stage, which make build (outputs %v) does not produce", src, outputs)
		}
	}
	if len(outputs) == 0 {
		t.Error("Makefile: make build names no output (-o)")
	}
}

// TestDockerContextHoldsTheBuildInputs: .dockerignore drops no tracked file
// that make build reads (Go sources, migrations, the OpenAPI document, the
// panel's sources and lock file).
func TestDockerContextHoldsTheBuildInputs(t *testing.T) {
	var patterns []string
	sc := bufio.NewScanner(strings.NewReader(readRepoFile(t, ".dockerignore")))
	for sc.Scan() {
		if p := strings.TrimSpace(sc.Text()); p != "" && !strings.HasPrefix(p, "#") {
			patterns = append(patterns, strings.TrimPrefix(strings.TrimSuffix(p, "/"), "/"))
		}
	}
	out, err := exec.Command("git", "-C", "../..", "ls-files").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	needed := regexp.MustCompile(`^(go\.(mod|sum)|Makefile|(cmd|core|adapters|internal|migrations|api)/|frontend/(src|scripts|public)/|frontend/[^/]+$)`)
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !needed.MatchString(f) {
			continue
		}
		if p, ok := dockerIgnored(patterns, f); ok {
			t.Errorf(".dockerignore pattern %q drops %s, which make build reads", p, f)
		}
	}
}

// dockerIgnored reports the pattern that excludes path (or one of its
// parent folders) from the build context, as Docker matches them.
func dockerIgnored(patterns []string, path string) (string, bool) {
	parts := strings.Split(path, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, prefix); ok {
				return p, true
			}
		}
	}
	return "", false
}

// TestEnvExampleDocumentsEverySetting: every variable the server reads and
// every variable docker-compose.yml interpolates has a line in .env.example.
func TestEnvExampleDocumentsEverySetting(t *testing.T) {
	example := readRepoFile(t, ".env.example")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#? *([A-Z][A-Z0-9_]*)=`).FindAllStringSubmatch(example, -1) {
		documented[m[1]] = true
	}
	read := map[string]bool{}
	if _, _, err := parseConfig(nil, func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatalf("parseConfig with no settings: %v", err)
	}
	if len(read) < 10 {
		t.Fatalf("parseConfig read only %d variables; the recorder is broken", len(read))
	}
	for k := range read {
		if !documented[k] {
			t.Errorf(".env.example does not document %s, which the server reads", k)
		}
	}
	for _, m := range regexp.MustCompile(`\$\{([A-Z][A-Z0-9_]*)`).FindAllStringSubmatch(readRepoFile(t, "docker-compose.yml"), -1) {
		if !documented[m[1]] {
			t.Errorf(".env.example does not document %s, which docker-compose.yml uses", m[1])
		}
	}
}

// TestReadmeDocumentsEverySetting: the README's configuration table names
// every variable the server reads.
func TestReadmeDocumentsEverySetting(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	read := map[string]bool{}
	if _, _, err := parseConfig(nil, func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	for k := range read {
		if !regexp.MustCompile("(?m)^\\| [^|]*`" + k + "`").MatchString(readme) {
			t.Errorf("README's configuration table does not name %s, which the server reads", k)
		}
	}
}

// TestComposeStartsCaddyOnceTheAppIsHealthy: the app has a healthcheck the
// image can run (the server binary itself: no curl there), Caddy waits for
// it, and the database password reaches the server apart from the URL, so
// any character MariaDB takes works.
func TestComposeStartsCaddyOnceTheAppIsHealthy(t *testing.T) {
	compose := readRepoFile(t, "docker-compose.yml")
	docker := readRepoFile(t, "Dockerfile")
	service := func(name string) string {
		m := regexp.MustCompile(`(?ms)^  ` + name + `:\n(.*?)(?:\n  [a-z]+:\n|\n[a-z]+:)`).FindStringSubmatch(compose)
		if m == nil {
			t.Fatalf("docker-compose.yml: no service %s", name)
		}
		return m[1]
	}
	app, caddy := service("app"), service("caddy")
	check := regexp.MustCompile(`(?m)^    healthcheck:\n      test: \["CMD", "([^"]+)", "healthcheck"\]`).FindStringSubmatch(app)
	if check == nil {
		t.Fatal(`docker-compose.yml: the app has no healthcheck running ["CMD", "<server>", "healthcheck"]`)
	}
	if !regexp.MustCompile(`(?m)^ENTRYPOINT \["` + regexp.QuoteMeta(check[1]) + `"\]`).MatchString(docker) {
		t.Errorf("the healthcheck runs %s, which is not the image's entrypoint", check[1])
	}
	if !regexp.MustCompile(`(?m)^    depends_on:\n      app:\n        condition: service_healthy$`).MatchString(caddy) {
		t.Error("docker-compose.yml: caddy does not wait for the app to be healthy")
	}
	url := regexp.MustCompile(`(?m)^      DATABASE_URL: (.*)$`).FindStringSubmatch(app)
	if url == nil || strings.Contains(url[1], "${") || strings.Contains(url[1], ":${") {
		t.Errorf("docker-compose.yml: DATABASE_URL %v carries an interpolated value (a password with / @ # ? %% breaks it)", url)
	}
	if !regexp.MustCompile(`(?m)^      DATABASE_PASSWORD: \$\{MARIADB_PASSWORD[:}]`).MatchString(app) {
		t.Error("docker-compose.yml: the app does not get DATABASE_PASSWORD from MARIADB_PASSWORD")
	}
	if !strings.Contains(usage, "healthcheck") {
		t.Error("the usage text does not name the healthcheck command")
	}
}
