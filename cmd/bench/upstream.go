package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// startUpstream serves POST /echo on loopback with a small JSON answer,
// {"ok":true,"echo":<the request body>}: the provider both runs call.
func startUpstream() (*http.Server, string, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		echo := json.RawMessage("null")
		if json.Valid(body) {
			echo = body
		}
		out, _ := json.Marshal(struct {
			OK   bool            `json:"ok"`
			Echo json.RawMessage `json:"echo"`
		}{true, echo})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.Write(out)
	})
	return serveLoopback(mux)
}

// serveLoopback serves h on 127.0.0.1 at a free port and returns its base URL.
func serveLoopback(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return srv, "http://" + ln.Addr().String(), nil
}
