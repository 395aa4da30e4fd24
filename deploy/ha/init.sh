#!/bin/bash
# Run once, by galera1's first start (docker-entrypoint-initdb.d): the
# state-transfer user (mariabackup) and the proxy's check user.
set -euo pipefail
mariadb -uroot -p"$MARIADB_ROOT_PASSWORD" <<SQL
CREATE USER IF NOT EXISTS 'sst'@'localhost' IDENTIFIED BY '${SST_PASSWORD}';
GRANT RELOAD, PROCESS, LOCK TABLES, BINLOG MONITOR ON *.* TO 'sst'@'localhost';
CREATE USER IF NOT EXISTS 'check'@'%' IDENTIFIED BY '${CHECK_PASSWORD}';
GRANT USAGE ON *.* TO 'check'@'%';
SQL
