#!/bin/sh
# HAProxy's external check: $3 and $4 are the node's address and port.
state=$(mariadb -h"$3" -P"$4" -u"$CHECK_USER" -p"$CHECK_PASSWORD" --connect-timeout=1 -N -B \
	-e "SHOW STATUS LIKE 'wsrep_local_state'" 2>/dev/null | awk '{print $2}')
[ "$state" = 4 ] || [ "$state" = 2 ]
