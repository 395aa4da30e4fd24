package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"paygate/internal/childproc"
	"paygate/internal/dburl"
)

// database is the server's DATABASE_URL and how to throw it away.
type database struct {
	URL  string
	drop func() error
}

// prepareDatabase gives the run a database of its own: "mysql" creates
// bench_<unix time> on the server at adminURL (the private mariadbd's or
// -mysql), "sqlite" a file in a temp folder; anything else is taken as a
// DATABASE_URL and left alone.
func prepareDatabase(ctx context.Context, spec, adminURL, tmp string) (database, error) {
	switch spec {
	case "sqlite":
		return database{URL: "sqlite://" + filepath.Join(tmp, "bench.db"), drop: func() error { return nil }}, nil
	case "mysql":
	default:
		return database{URL: spec, drop: func() error { return nil }}, nil
	}
	db, err := dburl.OpenServer(adminURL)
	if err != nil {
		return database{}, err
	}
	name := fmt.Sprintf("bench_%d", time.Now().UnixNano()) // two in one second in A/B mode
	if _, err := db.ExecContext(ctx, "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"); err != nil {
		db.Close()
		return database{}, fmt.Errorf("create database %s: %w", name, err)
	}
	u, _ := url.Parse(adminURL) // parsed by openAdmin
	u.Path = "/" + name
	return database{URL: u.String(), drop: func() error {
		defer db.Close()
		_, err := db.Exec("DROP DATABASE `" + name + "`")
		return err
	}}, nil
}

// child is the real server running as a subprocess.
type child struct {
	cmd     *exec.Cmd
	base    string
	logPath string
	exited  chan struct{}
	err     error // set when exited is closed
}

// startServer runs path with the given environment on a free loopback port
// and waits until GET /readyz answers 200. Its output goes to logPath.
func startServer(ctx context.Context, path string, env []string, logPath string) (*child, error) {
	port, err := childproc.FreePort()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), append(env, "HTTP_ADDR="+addr)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w (build it with make build)", path, err)
	}
	c := &child{cmd: cmd, base: "http://" + addr, logPath: logPath, exited: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		logFile.Close()
		close(c.exited)
	}()

	deadline := time.Now().Add(60 * time.Second)
	for {
		if ready(ctx, c.base+"/readyz") {
			return c, nil
		}
		select {
		case <-c.exited:
			return nil, fmt.Errorf("server exited before it was ready (%v):\n%s", c.err, childproc.LogTail(logPath, 20))
		case <-ctx.Done():
			c.stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.stop()
			return nil, fmt.Errorf("server not ready after 60s:\n%s", childproc.LogTail(logPath, 20))
		}
	}
}

func ready(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stop sends SIGTERM and waits up to 15s for a graceful exit, then kills.
func (c *child) stop() error {
	select {
	case <-c.exited:
		return c.err
	default:
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
		return c.err
	case <-time.After(15 * time.Second):
		c.cmd.Process.Kill()
		<-c.exited
		return errors.New("server did not stop within 15s of SIGTERM; killed")
	}
}

// ledgerCheck runs `<server> ledger check` against the database and
// returns its output; ok is its verdict (exit status 0).
func ledgerCheck(ctx context.Context, path string, env []string) (output string, ok bool, err error) {
	cmd := exec.CommandContext(ctx, path, "ledger", "check")
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), false, nil
	}
	return out.String(), err == nil, err
}

// secret is a random password for the run's accounts.
func secret() string { return rand.Text() }

// metricsToken is the bench server's METRICS_TOKEN.
var metricsToken string

// conflicts reads the server's paygate_db_conflict_retries_total and
// paygate_db_conflict_aborts_total from /metrics.
func conflicts(ctx context.Context, base, token string) (retries, aborts int64, err error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	var body bytes.Buffer
	if _, err := body.ReadFrom(res.Body); err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(body.String(), "\n") {
		var v float64
		if _, err := fmt.Sscanf(line, "paygate_db_conflict_retries_total %g", &v); err == nil {
			retries = int64(v)
		}
		if _, err := fmt.Sscanf(line, "paygate_db_conflict_aborts_total %g", &v); err == nil {
			aborts = int64(v)
		}
	}
	return retries, aborts, nil
}
