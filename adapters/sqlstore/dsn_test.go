package sqlstore_test

import (
	"testing"
	"time"

	"paygate/adapters/sqlstore"
)

func TestMySQLConfig(t *testing.T) {
	t.Parallel()
	cfg, err := sqlstore.MySQLConfig("mysql://app:p%40ss%3Aw%2Frd@db.internal:3307/paygate?timeout=3s&parseTime=false&loc=Local")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.User != "app" || cfg.Passwd != "p@ss:w/rd" || cfg.Net != "tcp" || cfg.Addr != "db.internal:3307" ||
		cfg.DBName != "paygate" || !cfg.ParseTime || cfg.Loc != time.UTC || !cfg.ClientFoundRows || cfg.Timeout != 3*time.Second {
		t.Fatalf("config = %+v", cfg)
	}
	cfg, err = sqlstore.MySQLConfig("mysql://root@localhost/paygate?socket=/run/mysqld/mysqld.sock")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Net != "unix" || cfg.Addr != "/run/mysqld/mysqld.sock" || cfg.DBName != "paygate" {
		t.Fatalf("socket config = %+v", cfg)
	}
	cfg, err = sqlstore.MySQLConfig("mysql://root@127.0.0.1/")
	if err != nil || cfg.Addr != "127.0.0.1:3306" || cfg.DBName != "" {
		t.Fatalf("default port: %+v, %v", cfg, err)
	}
}
