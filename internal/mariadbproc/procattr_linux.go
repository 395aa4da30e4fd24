package mariadbproc

import "syscall"

// sysProcAttr: a process group of its own (a terminal's Ctrl-C does not
// reach it) and SIGKILL when the thread that started it dies, so a
// crashed caller leaves no server behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
