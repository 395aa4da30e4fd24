package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CPU time per call: on a shared, CPU-bound machine wall-clock rates move
// with whatever else runs, but the CPU each process spends per call does
// much less. A run samples the CPU time (user + system) of the bench
// process itself (load generator and upstream, plus the bare proxy in the
// bare run), of the server and of the database server (when it is a
// process on this machine), and the machine's busy and idle time, before
// and after the measured part.

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times (100 on
// every Linux architecture Go supports).
const clockTicks = 100

// procCPU is a process's user + system CPU time from /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces: fields count from the
	// last ')'. utime and stime are fields 14 and 15.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad times", pid)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// selfCPU is this process's user + system CPU time (microsecond precision).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineCPU is the machine's busy and idle time since boot (/proc/stat).
func machineCPU() (busy, idle time.Duration, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, false
	}
	var total, idl int64
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		if i >= 8 { // guest times are already in user and nice
			break
		}
		total += n
		if i == 3 || i == 4 { // idle, iowait
			idl += n
		}
	}
	return time.Duration(total-idl) * time.Second / clockTicks, time.Duration(idl) * time.Second / clockTicks, true
}

// findDatabasePID finds the local MariaDB/MySQL server process for
// -db-pid auto: the process listening on the TCP port of the -mysql URL
// when it can be found (other users' processes need root), else the
// first process named mariadbd or mysqld; 0 if none.
func findDatabasePID(mysqlURL string) int {
	if u, err := url.Parse(mysqlURL); err == nil {
		port := u.Port()
		if port == "" {
			port = "3306"
		}
		if p, err := strconv.Atoi(port); err == nil {
			if pid := listenerPID(p); pid > 0 {
				return pid
			}
		}
	}
	return processNamed("mariadbd", "mysqld")
}

// listenerPID is the process with a socket listening on TCP port (IPv4 or
// IPv6), from /proc/net/tcp* and the processes' fd links; 0 if not found.
func listenerPID(port int) int {
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, ok := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); ok && err == nil && int(p) == port {
				inodes["socket:["+fields[9]+"]"] = true
			}
		}
	}
	if len(inodes) == 0 {
		return 0
	}
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if link, err := os.Readlink(fd); err == nil && inodes[link] {
			pid, _ := strconv.Atoi(strings.Split(fd, "/")[2])
			return pid
		}
	}
	return 0
}

// processNamed is the first process whose command name is one of names.
func processNamed(names ...string) int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil {
			continue
		}
		if slices.Contains(names, strings.TrimSpace(string(comm))) {
			pid, _ := strconv.Atoi(filepath.Base(d))
			return pid
		}
	}
	return 0
}

// cpuSample is one reading of every process a run involves.
type cpuSample struct {
	self, server, db time.Duration
	hasServer, hasDB bool
	busy, idle       time.Duration
	hasMachine       bool
}

// cpuProbe reads the bench's, the server's and the database's CPU times.
type cpuProbe struct {
	serverPID, dbPID int // 0: not sampled
}

func (p cpuProbe) sample() cpuSample {
	s := cpuSample{self: selfCPU()}
	if p.serverPID > 0 {
		if d, err := procCPU(p.serverPID); err == nil {
			s.server, s.hasServer = d, true
		}
	}
	if p.dbPID > 0 {
		if d, err := procCPU(p.dbPID); err == nil {
			s.db, s.hasDB = d, true
		}
	}
	s.busy, s.idle, s.hasMachine = machineCPU()
	return s
}

// cpuSummary is the CPU spent per successful call between two samples, in
// microseconds, by process; MachineIdle is the share of the machine's CPU
// time that went idle (all cores), Other the busy CPU per call that none of
// the sampled processes spent (other work on the machine: noise).
type cpuSummary struct {
	BenchUsPerCall  float64  `json:"bench_us_per_call"`
	ServerUsPerCall *float64 `json:"server_us_per_call,omitempty"`
	DBUsPerCall     *float64 `json:"db_us_per_call,omitempty"`
	TotalUsPerCall  float64  `json:"total_us_per_call"`
	OtherUsPerCall  *float64 `json:"other_us_per_call,omitempty"`
	MachineIdle     *float64 `json:"machine_idle,omitempty"`
}

func cpuPerCall(before, after cpuSample, calls int) *cpuSummary {
	if calls <= 0 {
		return nil
	}
	per := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) / float64(calls) }
	s := &cpuSummary{BenchUsPerCall: per(after.self - before.self)}
	s.TotalUsPerCall = s.BenchUsPerCall
	if before.hasServer && after.hasServer {
		v := per(after.server - before.server)
		s.ServerUsPerCall = &v
		s.TotalUsPerCall += v
	}
	if before.hasDB && after.hasDB {
		v := per(after.db - before.db)
		s.DBUsPerCall = &v
		s.TotalUsPerCall += v
	}
	if before.hasMachine && after.hasMachine {
		busy, idle := after.busy-before.busy, after.idle-before.idle
		if busy+idle > 0 {
			share := float64(idle) / float64(busy+idle)
			s.MachineIdle = &share
			other := max(per(busy)-s.TotalUsPerCall, 0)
			s.OtherUsPerCall = &other
		}
	}
	return s
}
