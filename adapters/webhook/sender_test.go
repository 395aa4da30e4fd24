package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	webhookadapter "paygate/adapters/webhook"
	"paygate/core/events/webhook"
)

func TestSenderRefusesInternalAddressesAtDialTime(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit = true }))
	defer srv.Close()
	// A name resolving to loopback passes a literal-address check; the
	// dial-time guard still refuses it.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	_, err := webhookadapter.New(false).Send(context.Background(), webhook.Request{URL: url, Header: http.Header{}, Body: []byte("{}")})
	if err == nil || err.Error() != "address not allowed" || hit {
		t.Fatalf("err %v, reached %v", err, hit)
	}
}

func TestSenderAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/big":
			w.Write([]byte(strings.Repeat("x", 10*webhook.SnippetBytes)))
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		default:
			if r.Header.Get("webhook-id") != "msg_1" || r.Method != http.MethodPost {
				w.WriteHeader(http.StatusBadRequest)
			}
		}
	}))
	defer srv.Close()
	s := webhookadapter.New(true)
	h := http.Header{"Webhook-Id": {"msg_1"}}
	send := func(path string, timeout time.Duration) (webhook.Response, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return s.Send(ctx, webhook.Request{URL: srv.URL + path, Header: h, Body: []byte("{}")})
	}
	if r, err := send("/ok", time.Second); err != nil || r.Status != 200 {
		t.Fatalf("ok: %+v %v", r, err)
	}
	if r, err := send("/moved", time.Second); err != nil || r.Status != http.StatusFound {
		t.Fatalf("a redirect is an answer, not followed: %+v %v", r, err)
	}
	if r, err := send("/big", time.Second); err != nil || len(r.Body) != webhook.SnippetBytes {
		t.Fatalf("big: %d bytes, %v", len(r.Body), err)
	}
	if _, err := send("/slow", 50*time.Millisecond); err == nil || err.Error() != "timed out" {
		t.Fatalf("slow: %v", err)
	}
	if _, err := s.Send(context.Background(), webhook.Request{URL: "http://127.0.0.1:1/x", Header: h}); err == nil || err.Error() != "connection refused" {
		t.Fatalf("closed port: %v", err)
	}
}
