package hostprobe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"paygate/adapters/hostprobe"
)

// TestGetFollowsTheAddressPolicy: a fetch through a host reads its answer
// (at most 1 KB, no redirect followed) where internal addresses are
// allowed, and is refused on loopback where they are not.
func TestGetFollowsTheAddressPolicy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/token":
			w.Write([]byte("pgv_abc"))
		case "/big":
			w.Write([]byte(strings.Repeat("x", 5000)))
		default:
			http.Redirect(w, r, "/token", http.StatusFound)
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	open := hostprobe.New(true)
	if st, body, err := open.Get(ctx, srv.URL+"/token"); err != nil || st != 200 || string(body) != "pgv_abc" {
		t.Fatalf("Get = %d %q %v", st, body, err)
	}
	if st, body, err := open.Get(ctx, srv.URL+"/big"); err != nil || st != 200 || len(body) != 1024 {
		t.Fatalf("big answer: %d, %d bytes, %v", st, len(body), err)
	}
	if st, _, err := open.Get(ctx, srv.URL+"/elsewhere"); err != nil || st != http.StatusFound {
		t.Fatalf("redirect: %d %v", st, err)
	}

	strict := hostprobe.New(false)
	if _, _, err := strict.Get(ctx, srv.URL+"/token"); err == nil {
		t.Fatal("a loopback address was fetched under the strict policy")
	}
	if _, _, err := strict.Get(ctx, "ftp://example.com/x"); err == nil {
		t.Fatal("a non-http URL was fetched")
	}
}
