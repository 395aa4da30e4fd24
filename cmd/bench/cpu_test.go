package main

import (
	"net"
	"os"
	"testing"
	"time"
)

func TestProcCPUReadsOwnProcess(t *testing.T) {
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) { // burn some CPU
	}
	d, err := procCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if d <= 0 || d > selfCPU()+time.Second/clockTicks {
		t.Fatalf("procCPU = %v, getrusage = %v", d, selfCPU())
	}
	if _, err := procCPU(-1); err == nil {
		t.Fatal("no error for a process that does not exist")
	}
}

func TestCPUPerCall(t *testing.T) {
	before := cpuSample{self: time.Second, server: 2 * time.Second, hasServer: true, busy: 10 * time.Second, idle: 5 * time.Second, hasMachine: true}
	after := cpuSample{self: 2 * time.Second, server: 4 * time.Second, hasServer: true, busy: 14 * time.Second, idle: 6 * time.Second, hasMachine: true}
	s := cpuPerCall(before, after, 10000) // 1 s self, 2 s server, 4 s busy, 1 s idle
	if s.BenchUsPerCall != 100 || *s.ServerUsPerCall != 200 || s.DBUsPerCall != nil || s.TotalUsPerCall != 300 {
		t.Fatalf("per call: %+v", s)
	}
	if *s.OtherUsPerCall != 100 || *s.MachineIdle != 0.2 {
		t.Fatalf("machine: other %v idle %v", *s.OtherUsPerCall, *s.MachineIdle)
	}
	if cpuPerCall(before, after, 0) != nil {
		t.Fatal("no calls: want nil")
	}
}

func TestListenerPID(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if got := listenerPID(ln.Addr().(*net.TCPAddr).Port); got != os.Getpid() {
		t.Fatalf("listenerPID = %d, want %d", got, os.Getpid())
	}
}
