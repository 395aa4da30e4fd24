package main

import (
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"

	"paygate/adapters/upstream"
)

// startProxy serves a bare reverse proxy to target on loopback: the floor
// the metered endpoint is compared with. It uses the same transport as the
// server's upstream client, so only the metering differs.
func startProxy(target string, errLog *log.Logger) (*http.Server, string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, "", err
	}
	rp := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(u) },
		Transport: upstream.NewTransport(true),
		ErrorLog:  errLog,
	}
	return serveLoopback(rp)
}
