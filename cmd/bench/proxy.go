package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

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

// serveProxyFlag runs the bench binary as the bare proxy alone (the process bare run):
// bench -serve-proxy TARGET prints "listening BASE_URL" and serves until
// its standard input closes or it is killed.
const serveProxyFlag = "-serve-proxy"

func serveProxyMain(target string, stdout io.Writer) error {
	srv, base, err := startProxy(target, log.New(os.Stderr, "bench proxy: ", 0))
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintln(stdout, "listening", base)
	io.Copy(io.Discard, os.Stdin) // the parent holds the pipe open while it needs the proxy
	return nil
}

// proxyProcess is the bare proxy running as a process of its own, like the
// server: the load generator reaches it, and it reaches the upstream,
// across processes, as with the metered server (in the bench's own process
// those hops are goroutine switches inside one Go runtime).
type proxyProcess struct {
	cmd   *exec.Cmd
	stdin io.Closer
	base  string
}

func startProxyProcess(ctx context.Context, target string) (*proxyProcess, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, serveProxyFlag, target)
	cmd.Stderr = os.Stderr
	// The same garbage collector setting as the server (cmd/server sets
	// GOGC 400 unless GOGC is set), so the two processes differ only in
	// what they do per call.
	cmd.Env = os.Environ()
	if os.Getenv("GOGC") == "" {
		cmd.Env = append(cmd.Env, "GOGC=400")
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proxyProcess{cmd: cmd, stdin: stdin}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		io.Copy(io.Discard, out)
	}()
	select {
	case l, ok := <-line:
		if base, found := strings.CutPrefix(l, "listening "); ok && found {
			p.base = base
			return p, nil
		}
		p.stop()
		return nil, errors.New("bare proxy process did not start")
	case <-time.After(10 * time.Second):
		p.stop()
		return nil, errors.New("bare proxy process not listening after 10s")
	case <-ctx.Done():
		p.stop()
		return nil, ctx.Err()
	}
}

func (p *proxyProcess) pid() int { return p.cmd.Process.Pid }

func (p *proxyProcess) stop() {
	p.stdin.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}
