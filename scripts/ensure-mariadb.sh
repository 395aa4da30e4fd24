#!/usr/bin/env bash
# ensure-mariadb.sh: make sure the MariaDB binaries are installed and a local
# MariaDB server answers, for the MySQL half of the store tests
# (TEST_MYSQL_URL defaults to mysql://root@127.0.0.1:3306/) and
# cmd/reportbench. Installs mariadb-server when mariadbd or
# mariadb-install-db is missing (the fault tests and cmd/bench start private
# servers of their own with them, whether or not the shared one runs),
# starts the shared server when it is stopped, and waits up to 60 s for it
# to answer. Quiet when everything is there; exits non-zero when it cannot
# be made so. Needs root for the install and the start. Idempotent.
set -euo pipefail

ping_server() {
	mariadb-admin --connect-timeout=2 ping >/dev/null 2>&1 ||
		mariadb-admin --connect-timeout=2 --protocol=tcp -h 127.0.0.1 -u root ping >/dev/null 2>&1
}

install_server() {
	if [ -x /usr/sbin/mariadbd ] && command -v mariadb-install-db >/dev/null 2>&1 && command -v mariadb-admin >/dev/null 2>&1; then
		return 0
	fi
	echo "ensure-mariadb: installing mariadb-server" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq mariadb-server >&2
}

start_server() {
	if ! id mysql >/dev/null 2>&1; then
		echo "ensure-mariadb: the mysql system user is missing (was mariadb-server installed?)" >&2
		exit 1
	fi

	install -d -o mysql -g mysql -m 0755 /run/mysqld
	install -d -o mysql -g mysql -m 0750 /var/log/mysql

	if [ ! -d /var/lib/mysql/mysql ]; then
		echo "ensure-mariadb: initialising the data directory" >&2
		mariadb-install-db --user=mysql --datadir=/var/lib/mysql --auth-root-authentication-method=normal >/dev/null
	fi

	# Ping once more: the package's post-install step may have started it.
	if ! ping_server; then
		echo "ensure-mariadb: starting mariadbd" >&2
		start-stop-daemon --start --oknodo --background --chuid mysql \
			--exec /usr/sbin/mariadbd -- \
			--user=mysql --datadir=/var/lib/mysql \
			--socket=/run/mysqld/mysqld.sock --pid-file=/run/mysqld/mysqld.pid
	fi
}

wait_for_server() {
	for _ in $(seq 1 60); do
		if ping_server; then
			return 0
		fi
		sleep 1
	done
	echo "ensure-mariadb: MariaDB did not answer within 60 s; see /var/log/mysql/error.log" >&2
	return 1
}

# The tests connect as root with no password over TCP. A fresh Debian
# install lets root in only over the socket (unix_socket): on such a
# machine, meant for development and tests, allow the password-less TCP
# login too.
ensure_tcp_root() {
	if mariadb --connect-timeout=2 --protocol=tcp -h 127.0.0.1 -u root -e 'SELECT 1' >/dev/null 2>&1; then
		return 0
	fi
	echo "ensure-mariadb: allowing root without a password over 127.0.0.1 (test machine set-up)" >&2
	mariadb -u root <<'SQL'
CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('');
FLUSH PRIVILEGES;
SQL
}

install_server
if ! ping_server; then
	start_server
	wait_for_server
fi
ensure_tcp_root
