//go:build !linux

package mariadbproc

import "syscall"

// sysProcAttr: a process group of its own (a terminal's Ctrl-C does not
// reach it).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
