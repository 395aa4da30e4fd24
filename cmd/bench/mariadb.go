package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"strconv"
	"strings"
	"time"

	"paygate/internal/dburl"
	"paygate/internal/mariadbproc"
)

// privateMySQL is the -mysql value for a mariadbd of the run's own.
const privateMySQL = "private"

// privateFlags are the settings of the run's own mariadbd
// (mariadbproc.BenchFlags, shared with cmd/reportbench).
var privateFlags = mariadbproc.BenchFlags

// reportedSettings are the server variables the report shows, read from
// the server itself (private or not).
var reportedSettings = []string{"innodb_flush_log_at_trx_commit", "innodb_log_file_size", "innodb_buffer_pool_size", "log_bin", "max_connections"}

// dbServer is the MariaDB/MySQL server on which -db mysql creates the
// run's databases.
type dbServer struct {
	adminURL string
	private  *mariadbproc.Server // nil: an existing server (-mysql URL)
	info     *databaseInfo
}

// databaseInfo is the report's description of the database server.
type databaseInfo struct {
	Server       string    `json:"server"` // "private" or the -mysql URL without its password
	Version      string    `json:"version"`
	StartSeconds float64   `json:"start_seconds,omitempty"` // private: mariadb-install-db + start until it answered
	Flags        []string  `json:"flags,omitempty"`         // private: the settings given on mariadbd's command line
	Settings     []setting `json:"settings"`                // as the server reports them
}

type setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// openDBServer starts the private mariadbd (-mysql private) or connects
// to the -mysql server, and reads its settings for the report. Without
// -db mysql (or with -only-bare) there is no server: nil.
func openDBServer(ctx context.Context, o options, progress *log.Logger) (*dbServer, error) {
	if o.db != "mysql" || o.onlyBare {
		return nil, nil
	}
	s := &dbServer{adminURL: o.mysql, info: &databaseInfo{Server: dburl.Redact(o.mysql)}}
	if o.mysql == privateMySQL {
		progress.Printf("starting a private mariadbd %s", strings.Join(privateFlags, " "))
		began := time.Now()
		srv, err := mariadbproc.New(ctx, privateFlags...)
		if err != nil {
			return nil, fmt.Errorf("private mariadbd: %w", err)
		}
		s.private, s.adminURL = srv, srv.URL()
		s.info.Server, s.info.Flags = privateMySQL, srv.Flags()
		s.info.StartSeconds = time.Since(began).Seconds()
		progress.Printf("private mariadbd ready in %.1fs (pid %d, %s, folder %s)", s.info.StartSeconds, srv.PID(), srv.Addr(), srv.Dir())
	}
	var err error
	if s.info.Version, s.info.Settings, err = readSettings(ctx, s.adminURL); err != nil {
		s.close(false, progress)
		return nil, fmt.Errorf("read the database server's settings: %w", err)
	}
	return s, nil
}

// admin is the server's URL without a database; "" without a server
// (prepareDatabase then needs none).
func (s *dbServer) admin() string {
	if s == nil {
		return ""
	}
	return s.adminURL
}

// pid is the database server's process id for the CPU probe: -db-pid when
// given, the private mariadbd's, or the local process on the -mysql port.
func (s *dbServer) pid(o options) int {
	switch {
	case o.dbPID >= 0:
		return o.dbPID
	case s == nil:
		return 0
	case s.private != nil:
		return s.private.PID()
	default:
		return findDatabasePID(s.adminURL)
	}
}

// close stops the private mariadbd (a clean shutdown) and removes its
// folder, or keeps the folder with -keep; an existing server is left alone.
func (s *dbServer) close(keep bool, progress *log.Logger) {
	if s == nil || s.private == nil {
		return
	}
	if err := s.private.Stop(); err != nil {
		progress.Printf("private mariadbd: %v", err)
	}
	if keep {
		progress.Printf("kept the private mariadbd's folder %s (look at it: mariadbd --no-defaults --datadir=%s/data --port=%d --skip-grant-tables)",
			s.private.Dir(), s.private.Dir(), s.private.Port())
		return
	}
	if err := s.private.Close(); err != nil {
		progress.Printf("private mariadbd: remove its folder: %v", err)
	}
}

// parseServerURL parses a -mysql value that is not "private": a mysql://
// URL of an existing server.
func parseServerURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "mysql" {
		return nil, fmt.Errorf("-mysql must be %q or a mysql:// URL, got %q", privateMySQL, dburl.Redact(s))
	}
	return u, nil
}

// readSettings reads the server's version and reportedSettings.
func readSettings(ctx context.Context, adminURL string) (version string, settings []setting, err error) {
	db, err := dburl.OpenServer(adminURL)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, "SELECT @@version").Scan(&version); err != nil {
		return "", nil, err
	}
	for _, name := range reportedSettings {
		var v string
		// The names are this file's constants, not input.
		if err := db.QueryRowContext(ctx, "SELECT @@global."+name).Scan(&v); err != nil {
			return "", nil, fmt.Errorf("@@%s: %w", name, err)
		}
		settings = append(settings, setting{Name: name, Value: settingValue(name, v)})
	}
	return version, settings, nil
}

// settingValue writes sizes as mariadbd's flags take them (1G, 512M) and
// booleans as ON/OFF.
func settingValue(name, v string) string {
	if name == "log_bin" {
		switch v {
		case "0":
			return "OFF"
		case "1":
			return "ON"
		}
		return v
	}
	if !strings.HasSuffix(name, "_size") {
		return v
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return v
	}
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return v
}

// line is the report's one-line description of the database server.
func (d *databaseInfo) line() string {
	var b strings.Builder
	if d.Server == privateMySQL {
		fmt.Fprintf(&b, "database: a private mariadbd %s (started in %.1fs)", d.Version, d.StartSeconds)
	} else {
		fmt.Fprintf(&b, "database: %s at %s", d.Version, d.Server)
	}
	for _, s := range d.Settings {
		fmt.Fprintf(&b, ", %s=%s", s.Name, s.Value)
	}
	return b.String()
}
