package childproc

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestFreePortCanBeListenedOn(t *testing.T) {
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatalf("port %d: %v", port, err)
	}
	ln.Close()
}

func TestLogTailKeepsTheLastLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, []byte("a\nb\nc\nd\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{2: "c\nd", 4: "a\nb\nc\nd", 9: "a\nb\nc\nd"} {
		if got := LogTail(path, n); got != want {
			t.Errorf("LogTail(%d) = %q, want %q", n, got, want)
		}
	}
	if got := LogTail(filepath.Join(t.TempDir(), "none"), 3); got != "" {
		t.Errorf("missing file: %q", got)
	}
}
