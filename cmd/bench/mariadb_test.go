package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"slices"
	"strings"
	"testing"

	"paygate/internal/dburl"
	"paygate/internal/mariadbproc/mariadbproctest"
)

// TestOpenDBServerWithout: sqlite, a DATABASE_URL as is, or the bare
// proxy alone start no database server, and no database PID is probed
// unless -db-pid says so.
func TestOpenDBServerWithout(t *testing.T) {
	progress := log.New(io.Discard, "", 0)
	for _, args := range [][]string{{"-db", "sqlite"}, {"-db", "mysql://u@h:1/x"}, {"-only-bare"}} {
		o, err := parseFlags(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		s, err := openDBServer(context.Background(), o, progress)
		if err != nil || s != nil {
			t.Fatalf("%v: %+v %v", args, s, err)
		}
		if s.pid(o) != 0 || s.admin() != "" {
			t.Fatalf("%v: pid %d, admin %q", args, s.pid(o), s.admin())
		}
		s.close(false, progress) // nil: nothing to stop
	}
	o, _ := parseFlags([]string{"-db", "sqlite", "-db-pid", "42"}, io.Discard)
	if (*dbServer)(nil).pid(o) != 42 {
		t.Fatal("-db-pid not used")
	}
}

// TestPrivateFlags: the private server's settings are stated, not left to
// defaults: durable commits, a redo log and a buffer pool for the run.
func TestPrivateFlags(t *testing.T) {
	for _, want := range []string{"--innodb-flush-log-at-trx-commit=1", "--innodb-log-file-size=1G", "--innodb-buffer-pool-size=512M", "--skip-log-bin", "--max-connections=300"} {
		if !slices.Contains(privateFlags, want) {
			t.Errorf("privateFlags lacks %s: %v", want, privateFlags)
		}
	}
}

func TestSettingValue(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"innodb_log_file_size", "1073741824", "1G"},
		{"innodb_log_file_size", "100663296", "96M"},
		{"innodb_buffer_pool_size", "536870912", "512M"},
		{"innodb_buffer_pool_size", "1536", "1536"}, // 1.5 KiB: left in bytes
		{"innodb_buffer_pool_size", "2048", "2K"},
		{"max_connections", "300", "300"},
		{"innodb_flush_log_at_trx_commit", "1", "1"},
		{"log_bin", "0", "OFF"},
		{"log_bin", "1", "ON"},
	} {
		if got := settingValue(tt.name, tt.in); got != tt.want {
			t.Errorf("settingValue(%s, %s) = %s, want %s", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestReportShowsDatabase: the table's header and the JSON carry the
// database server's version, flags and settings, a password never.
func TestReportShowsDatabase(t *testing.T) {
	settings := []setting{{"innodb_flush_log_at_trx_commit", "1"}, {"innodb_log_file_size", "1G"}, {"innodb_buffer_pool_size", "512M"}, {"log_bin", "OFF"}, {"max_connections", "300"}}
	private := &report{Connections: 64, DurationS: 10, GOMAXPROCS: 2, Database: &databaseInfo{
		Server: "private", Version: "10.11.19-MariaDB", StartSeconds: 3.2, Flags: privateFlags, Settings: settings,
	}}
	var table bytes.Buffer
	if err := private.writeTable(&table); err != nil {
		t.Fatal(err)
	}
	want := "database: a private mariadbd 10.11.19-MariaDB (started in 3.2s), innodb_flush_log_at_trx_commit=1, innodb_log_file_size=1G, innodb_buffer_pool_size=512M, log_bin=OFF, max_connections=300\n"
	if lines := strings.SplitAfter(table.String(), "\n"); len(lines) < 2 || lines[1] != want {
		t.Fatalf("table header:\n%s\nwant second line:\n%s", table.String(), want)
	}
	var js bytes.Buffer
	if err := private.writeJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Database databaseInfo `json:"database"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Database.Server != "private" || got.Database.StartSeconds != 3.2 || !slices.Equal(got.Database.Flags, privateFlags) || !slices.Equal(got.Database.Settings, settings) {
		t.Fatalf("JSON database: %+v\n%s", got.Database, js.String())
	}

	shared := &report{Database: &databaseInfo{Server: dburl.Redact("mysql://bench:s3cret@db:3306/"), Version: "10.11.19-MariaDB", Settings: settings[:1]}}
	table.Reset()
	if err := shared.writeTable(&table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "s3cret") || !strings.Contains(table.String(), "database: 10.11.19-MariaDB at mysql://bench:xxxxx@db:3306/, innodb_flush_log_at_trx_commit=1\n") {
		t.Fatalf("existing server:\n%s", table.String())
	}
}

// TestPrivateServerSettings starts a mariadbd with the bench's flags (so a
// flag mariadbd refuses fails here, not in a bench run) and reads back the
// settings the report shows.
func TestPrivateServerSettings(t *testing.T) {
	s := mariadbproctest.Start(t, privateFlags...)
	version, settings, err := readSettings(context.Background(), s.URL())
	if err != nil {
		t.Fatal(err)
	}
	want := []setting{{"innodb_flush_log_at_trx_commit", "1"}, {"innodb_log_file_size", "1G"}, {"innodb_buffer_pool_size", "512M"}, {"log_bin", "OFF"}, {"max_connections", "300"}}
	if !strings.Contains(version, "MariaDB") || !slices.Equal(settings, want) {
		t.Fatalf("version %q, settings %v, want %v", version, settings, want)
	}
	db, err := prepareDatabase(context.Background(), "mysql", s.URL(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(db.URL, s.URL()+"bench_") {
		t.Fatalf("database URL %s", db.URL)
	}
	if err := db.drop(); err != nil {
		t.Fatal(err)
	}
}
