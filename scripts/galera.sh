#!/usr/bin/env bash
# galera.sh: a three-node MariaDB Galera cluster on loopback, for the HA
# tests (internal/hatest, make test-ha) and for trying the product on one.
#
#   scripts/galera.sh start        bootstrap node 1, join 2 and 3 (SST by rsync), start HAProxy
#   scripts/galera.sh stop         stop HAProxy and the nodes (clean shutdown), keep the data
#   scripts/galera.sh destroy      stop, then remove GALERA_DIR
#   scripts/galera.sh status       each node's wsrep state and the cluster size
#   scripts/galera.sh kill N       SIGKILL node N (1-3)
#   scripts/galera.sh restart N    start node N again: it rejoins by IST or SST, waits until Synced
#   scripts/galera.sh env          the DSNs, as shell assignments (GALERA_DSNS, GALERA_PROXY_DSN)
#
# Debian's mariadbd 10.11 with galera-4 (/usr/lib/galera/libgalera_smm.so);
# each node has its own datadir under GALERA_DIR (default
# ${TMPDIR:-/tmp}/paygate-galera), small memory settings, client port
# GALERA_PORT+N (3310+N), group port 4570+N, IST 4580+N, SST 4590+N.
# HAProxy (scripts/ensure-galera.sh) listens on GALERA_PORT (3310) in TCP
# mode and sends new connections to one Synced node at a time (the others
# are backups): a node is healthy when it answers wsrep_local_state 4
# (Synced) or 2 (Donor; not a joiner), checked
# every second by an external check (this script with HAProxy's four
# arguments; it may take 3 s: on a busy machine a 1 s limit marked healthy
# nodes down and cut their sessions), down after three failures, up after
# two; sessions on a node marked down are cut.
# The tests' user: paygate / paygate, all privileges, from 127.0.0.1.
set -euo pipefail

DIR="${GALERA_DIR:-${TMPDIR:-/tmp}/paygate-galera}"
BASE_PORT="${GALERA_PORT:-3310}"
LIB=/usr/lib/galera/libgalera_smm.so
NODES=(1 2 3)
SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"

die() { echo "galera: $*" >&2; exit 1; }
port() { echo $((BASE_PORT + $1)); }
gport() { echo $((4570 + $1)); }
sock() { echo "$DIR/node$1/mysqld.sock"; }
pidof_node() { [ -f "$DIR/node$1/run.pid" ] && cat "$DIR/node$1/run.pid" 2>/dev/null || true; }
alive() { local p; p=$(pidof_node "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
q() { mariadb --protocol=socket -S "$(sock "$1")" -uroot -N -B -e "$2" 2>/dev/null; }
state() { q "$1" "SHOW STATUS LIKE 'wsrep_local_state'" | awk '{print $2}'; }

user_flag() { if [ "$(id -u)" = 0 ]; then echo "--user=root"; fi; }

write_cnf() {
	local n=$1 peers=""
	for m in "${NODES[@]}"; do peers+="127.0.0.1:$(gport "$m"),"; done
	cat >"$DIR/node$n.cnf" <<CNF
[mysqld]
datadir=$DIR/node$n/data
socket=$(sock "$n")
pid-file=$DIR/node$n/mysqld.pid
log-error=$DIR/node$n/error.log
port=$(port "$n")
bind-address=127.0.0.1
skip-name-resolve
# Small: three nodes share a small machine with other work.
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
innodb_flush_log_at_trx_commit=2
performance_schema=OFF
max_connections=300
# Galera's requirements: row events, interleaved auto-increment locks.
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
# A table without a primary key is refused: Galera replicates rows by key.
innodb_force_primary_key=ON
wsrep_on=ON
wsrep_provider=$LIB
wsrep_cluster_name=paygate
wsrep_cluster_address=gcomm://${peers%,}
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1
wsrep_provider_options="base_port=$(gport "$n");ist.recv_addr=127.0.0.1:$((4580 + n));gcache.size=64M;gcs.fc_limit=64;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT4S"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((4590 + n))
wsrep_slave_threads=2
# An autocommit statement aborted by a conflicting write set (or by DDL run
# in total order, e.g. the payload retention's TRUNCATE PARTITION) is rerun
# by the server up to 4 times before the client sees a deadlock.
wsrep_retry_autocommit=4
CNF
}

start_node() { # n [--wsrep-new-cluster]
	local n=$1
	shift
	alive "$n" && return 0
	# As root, the joiner's rsync daemon (wsrep_sst_rsync) runs as nobody
	# and must own the datadir it writes (mariadbd, as root, can use it).
	if [ "$(id -u)" = 0 ]; then chown -R nobody "$DIR/node$n/data"; fi
	# shellcheck disable=SC2046
	mariadbd --defaults-file="$DIR/node$n.cnf" $(user_flag) "$@" >>"$DIR/node$n/stdout.log" 2>&1 &
	echo $! >"$DIR/node$n/run.pid"
	disown
}

wait_synced() { # n timeout_s
	local n=$1 t=$(($2 * 5))
	for ((i = 0; i < t; i++)); do
		if [ "$(state "$n")" = 4 ]; then return 0; fi
		if ! alive "$n"; then break; fi
		sleep 0.2
	done
	tail -n 30 "$DIR/node$n/error.log" >&2 || true
	die "node $n did not reach Synced (wsrep_local_state 4) in $2 s; log: $DIR/node$n/error.log"
}

init_node() {
	local n=$1
	mkdir -p "$DIR/node$n"
	write_cnf "$n"
	if [ ! -d "$DIR/node$n/data/mysql" ]; then
		# shellcheck disable=SC2046
		mariadb-install-db --defaults-file="$DIR/node$n.cnf" --datadir="$DIR/node$n/data" $(user_flag) --auth-root-authentication-method=socket \
			--skip-test-db >"$DIR/node$n/install.log" 2>&1 || { cat "$DIR/node$n/install.log" >&2; die "mariadb-install-db failed for node $n"; }
	fi
}

write_haproxy() {
	cat >"$DIR/haproxy.cfg" <<CFG
global
	maxconn 2000
	external-check
	insecure-fork-wanted
	log stderr format short local0 notice

defaults
	mode tcp
	timeout connect 2s
	timeout client 1h
	timeout server 1h
	timeout check 3s
	retries 3
	option redispatch
	log global

listen galera
	bind 127.0.0.1:$BASE_PORT
	balance first
	option external-check
	external-check path "/usr/bin:/bin:/usr/sbin"
	external-check command $SELF
	default-server inter 1s fall 3 rise 2 on-marked-down shutdown-sessions
CFG
	for n in "${NODES[@]}"; do
		local b=""
		[ "$n" != 1 ] && b=" backup"
		echo "	server node$n 127.0.0.1:$(port "$n") check$b" >>"$DIR/haproxy.cfg"
	done
}

start_haproxy() {
	command -v haproxy >/dev/null || bash "$(dirname "$SELF")/ensure-galera.sh"
	if [ -f "$DIR/haproxy.pid" ] && kill -0 "$(cat "$DIR/haproxy.pid")" 2>/dev/null; then return 0; fi
	write_haproxy
	# In the foreground of its own session, its log (server state changes) to haproxy.log.
	setsid haproxy -db -f "$DIR/haproxy.cfg" >>"$DIR/haproxy.log" 2>&1 </dev/null &
	echo $! >"$DIR/haproxy.pid"
	disown
	for ((i = 0; i < 50; i++)); do
		if mariadb -h127.0.0.1 -P"$BASE_PORT" -upaygate -ppaygate -N -e 'SELECT 1' >/dev/null 2>&1; then return 0; fi
		sleep 0.2
	done
	die "haproxy on 127.0.0.1:$BASE_PORT does not reach a node"
}

cmd_start() {
	command -v mariadbd >/dev/null || die "mariadbd not found (scripts/ensure-mariadb.sh installs mariadb-server)"
	[ -f "$LIB" ] || die "$LIB not found (Debian package galera-4)"
	mkdir -p "$DIR"
	for n in "${NODES[@]}"; do init_node "$n"; done
	if ! alive 1; then
		local boot=(--wsrep-new-cluster)
		# A cluster stopped cleanly: node 1 was the last to stop, so it is safe to bootstrap.
		if [ -f "$DIR/node1/data/grastate.dat" ]; then sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$DIR/node1/data/grastate.dat"; fi
		start_node 1 "${boot[@]}"
		wait_synced 1 60
		q 1 "CREATE USER IF NOT EXISTS 'paygate'@'127.0.0.1' IDENTIFIED BY 'paygate';
			GRANT ALL ON *.* TO 'paygate'@'127.0.0.1' WITH GRANT OPTION;
			CREATE USER IF NOT EXISTS 'paygate'@'localhost' IDENTIFIED BY 'paygate';
			GRANT ALL ON *.* TO 'paygate'@'localhost' WITH GRANT OPTION;" || die "could not create the paygate user"
	fi
	# One joiner at a time: a donor serves one state transfer at once.
	for n in 2 3; do
		start_node "$n"
		wait_synced "$n" 120
	done
	start_haproxy
	cmd_status
}

stop_node() {
	local n=$1 p
	p=$(pidof_node "$n")
	[ -n "$p" ] && kill -0 "$p" 2>/dev/null || return 0
	kill -TERM "$p"
	for ((i = 0; i < 300; i++)); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$p" 2>/dev/null || true
}

cmd_stop() {
	if [ -f "$DIR/haproxy.pid" ]; then kill "$(cat "$DIR/haproxy.pid")" 2>/dev/null || true; rm -f "$DIR/haproxy.pid"; fi
	# The first node to be bootstrapped next time stops last.
	for n in 3 2 1; do stop_node "$n"; done
}

cmd_status() {
	for n in "${NODES[@]}"; do
		if alive "$n"; then
			echo "node$n 127.0.0.1:$(port "$n") pid $(pidof_node "$n") $(q "$n" "SELECT CONCAT('state=', (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='WSREP_LOCAL_STATE_COMMENT'), ' cluster_size=', (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='WSREP_CLUSTER_SIZE'))")"
		else
			echo "node$n 127.0.0.1:$(port "$n") down"
		fi
	done
	if [ -f "$DIR/haproxy.pid" ] && kill -0 "$(cat "$DIR/haproxy.pid")" 2>/dev/null; then
		echo "haproxy 127.0.0.1:$BASE_PORT pid $(cat "$DIR/haproxy.pid")"
	else
		echo "haproxy 127.0.0.1:$BASE_PORT down"
	fi
}

cmd_env() {
	local dsns=""
	for n in "${NODES[@]}"; do dsns+="mysql://paygate:paygate@127.0.0.1:$(port "$n")/,"; done
	echo "GALERA_DSNS=${dsns%,}"
	echo "GALERA_PROXY_DSN=mysql://paygate:paygate@127.0.0.1:$BASE_PORT/"
	echo "GALERA_DIR=$DIR"
}

# HAProxy's external check: argv 3 and 4 are the server's address and port.
# Healthy: Synced (4), or Donor (2): a restarted node catches up by IST,
# which does not block its donor, and marking the donor down would cut
# every session the instances have on it (an rsync SST, a new node's full
# copy, does block the donor for its length: calls wait, they do not fail).
cmd_check() {
	local s
	s=$(mariadb -h"$1" -P"$2" -upaygate -ppaygate --connect-timeout=1 -N -B -e "SHOW STATUS LIKE 'wsrep_local_state'" 2>/dev/null | awk '{print $2}')
	[ "$s" = 4 ] || [ "$s" = 2 ]
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
destroy) cmd_stop; rm -rf "$DIR" ;;
status) cmd_status ;;
env) cmd_env ;;
kill)
	n="${2:?node number}"
	p=$(pidof_node "$n")
	[ -n "$p" ] || die "node $n has no pid"
	kill -KILL "$p"
	;;
restart)
	n="${2:?node number}"
	alive "$n" && die "node $n is running"
	# After a crash grastate.dat says seqno -1: recover the last committed
	# position from InnoDB first (as Debian's galera_recovery does), so the
	# node asks for the missing write sets only (IST from a donor's gcache,
	# the donor keeps serving) instead of a full copy (rsync SST blocks it).
	start_args=()
	# shellcheck disable=SC2046
	if mariadbd --defaults-file="$DIR/node$n.cnf" $(user_flag) --wsrep-recover --log-error="$DIR/node$n/recover.log" >/dev/null 2>&1; then
		pos=$(sed -n 's/.*WSREP: Recovered position: \([0-9a-f-]*:[0-9-]*\).*/\1/p' "$DIR/node$n/recover.log" | tail -n 1)
		if [ -n "$pos" ]; then start_args=(--wsrep-start-position="$pos"); fi
		rm -f "$DIR/node$n/recover.log"
	fi
	start_node "$n" "${start_args[@]}"
	wait_synced "$n" "${GALERA_JOIN_TIMEOUT:-120}"
	;;
*)
	# HAProxy runs the external check as: <cmd> <proxy addr> <proxy port> <server addr> <server port>
	if [ $# -eq 4 ] && [[ "$4" =~ ^[0-9]+$ ]]; then cmd_check "$3" "$4"; exit; fi
	sed -n '2,22p' "$SELF" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
