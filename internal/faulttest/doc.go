// Package faulttest holds the process-level reliability tests (issue 7):
// the real server binary under load while it is killed (SIGKILL, then
// restarted), while its MariaDB dies and comes back, and as three
// instances on one database. Only its tests have code; `make test-faults`
// runs them alone, `make test` with everything else.
package faulttest
