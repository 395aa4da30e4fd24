// Package mariadbproc runs a mariadbd of the caller's own: a data folder
// initialised by mariadb-install-db in a new temporary directory, a free
// loopback port, root without a password, and only the settings the
// caller gives (--no-defaults: no my.cnf is read). Stopping, killing or
// tuning it disturbs no other user of the machine's MariaDB. The fault
// tests kill and restart one; cmd/bench runs its load on one.
package mariadbproc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"paygate/internal/childproc"
	"paygate/internal/dburl"
)

// ErrNotInstalled: mariadb-install-db or mariadbd is not on this machine.
var ErrNotInstalled = errors.New("mariadb-install-db or mariadbd not found (scripts/ensure-mariadb.sh installs them)")

// StartTimeout bounds how long Start waits for the server to answer, and
// StopTimeout how long Stop waits for a clean shutdown.
const (
	StartTimeout = 60 * time.Second
	StopTimeout  = 60 * time.Second
)

// BenchFlags are the settings of the benchmarks' own mariadbd (cmd/bench,
// cmd/reportbench): what a production server needs for the bench's write
// rate, so that the figures do not depend on how a shared server happens
// to be configured (and a bench never changes a shared server's global
// settings). A metered call writes ~2.1 KB of redo: at ~4,000 calls/s the
// default 96 MiB redo log fills in ~12 s and InnoDB then stalls commits to
// flush pages (docs/decisions.md, "The bench runs its own MariaDB").
var BenchFlags = []string{
	"--innodb-flush-log-at-trx-commit=1", // durable commits (the default, stated): what production must run
	"--innodb-log-file-size=1G",          // ~2 min of redo at 4,000 calls/s: no checkpoint stall in a run
	"--innodb-buffer-pool-size=512M",     // the run's rows and indexes (~100–300 MB for -ab's two databases) stay in memory
	"--skip-log-bin",                     // one server, no replica: no binary log (production with replicas keeps it)
	"--max-connections=300",              // the server's pools (A and B in -ab) with room to spare
}

// Server is one mariadbd on its own data folder. Its methods are meant
// for one goroutine at a time.
type Server struct {
	dir      string // temporary directory: data/, sock, pid, log
	port     int
	mariadbd string
	flags    []string

	cmd     *exec.Cmd // nil before the first Start
	exited  chan struct{}
	waitErr error // set when exited is closed
}

// Binaries finds mariadb-install-db and mariadbd (in PATH, else mariadbd
// in /usr/sbin, where Debian puts it); the error wraps ErrNotInstalled.
func Binaries() (installDB, mariadbd string, err error) {
	installDB, err1 := exec.LookPath("mariadb-install-db")
	mariadbd, err2 := exec.LookPath("mariadbd")
	if err2 != nil {
		mariadbd, err2 = exec.LookPath("/usr/sbin/mariadbd")
	}
	if err1 != nil || err2 != nil {
		return "", "", ErrNotInstalled
	}
	return installDB, mariadbd, nil
}

// New initialises a data folder and starts mariadbd on it with flags
// after the fixed ones (data folder, port, loopback only, no grant
// tables); it returns once the server answers. Close removes everything.
func New(ctx context.Context, flags ...string) (*Server, error) {
	installDB, mariadbd, err := Binaries()
	if err != nil {
		return nil, err
	}
	// A short path: the socket's path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "pgmdb-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, mariadbd: mariadbd, flags: append([]string(nil), flags...)}
	args := []string{"--no-defaults", "--datadir=" + filepath.Join(dir, "data"), "--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	if out, err := exec.CommandContext(ctx, installDB, args...).CombinedOutput(); err != nil {
		s.Close()
		return nil, fmt.Errorf("mariadb-install-db: %w\n%s", err, out)
	}
	if s.port, err = childproc.FreePort(); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.Start(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Start runs mariadbd on the data folder (again, after Kill or Stop) and
// waits up to StartTimeout until it answers. The server runs in a process
// group of its own, so a Ctrl-C in the terminal reaches only the caller,
// which decides when to stop it; on Linux it is killed if the caller dies.
func (s *Server) Start(ctx context.Context) error {
	if s.running() {
		return errors.New("mariadbd is already running")
	}
	args := []string{"--no-defaults", "--datadir=" + filepath.Join(s.dir, "data"), "--port=" + strconv.Itoa(s.port),
		"--bind-address=127.0.0.1", "--socket=" + filepath.Join(s.dir, "sock"), "--pid-file=" + filepath.Join(s.dir, "pid"),
		"--skip-grant-tables"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	args = append(args, s.flags...)
	log, err := os.OpenFile(s.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.mariadbd, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start mariadbd: %w", err)
	}
	exited := make(chan struct{})
	s.cmd, s.exited, s.waitErr = cmd, exited, nil
	go func() { s.waitErr = cmd.Wait(); log.Close(); close(exited) }()

	db, err := dburl.OpenServer(s.URL())
	if err != nil {
		s.Kill()
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(StartTimeout)
	for {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := db.PingContext(pctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("mariadbd exited before it answered (%v):\n%s", s.waitErr, s.logTail(30))
		case <-ctx.Done():
			s.Kill()
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Kill()
			return fmt.Errorf("mariadbd did not answer within %s:\n%s", StartTimeout, s.logTail(30))
		}
	}
}

func (s *Server) running() bool {
	if s.cmd == nil {
		return false
	}
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// Kill ends the server at once (SIGKILL), as a crash or a power loss
// would, and waits until it is gone. Committed transactions survive it.
func (s *Server) Kill() {
	if !s.running() {
		return
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
}

// Stop shuts the server down cleanly (SIGTERM) and waits for it; after
// StopTimeout it is killed and Stop reports that.
func (s *Server) Stop() error {
	if !s.running() {
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		return nil
	case <-time.After(StopTimeout):
		s.Kill()
		return fmt.Errorf("mariadbd did not stop within %s of SIGTERM; killed", StopTimeout)
	}
}

// Close kills the server if it still runs and removes its data folder.
func (s *Server) Close() error {
	s.Kill()
	return os.RemoveAll(s.dir)
}

// Port is the server's TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// Addr is host:port of the server.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server as a DATABASE_URL without a database:
// mysql://root@127.0.0.1:<port>/ (root has no password).
func (s *Server) URL() string { return "mysql://root@" + s.Addr() + "/" }

// PID is the running mariadbd's process id, 0 when it is not running.
func (s *Server) PID() int {
	if !s.running() {
		return 0
	}
	return s.cmd.Process.Pid
}

// Flags are the caller's flags, as given to New.
func (s *Server) Flags() []string { return append([]string(nil), s.flags...) }

// Dir is the temporary directory holding the data folder (data/) and the log.
func (s *Server) Dir() string { return s.dir }

// LogPath is the file mariadbd's output goes to (appended to on each Start).
func (s *Server) LogPath() string { return filepath.Join(s.dir, "log") }

// logTail is the end of the server's log, for error messages.
func (s *Server) logTail(lines int) string { return childproc.LogTail(s.LogPath(), lines) }
