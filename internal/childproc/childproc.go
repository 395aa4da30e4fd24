// Package childproc holds what the tools that start servers as child
// processes (cmd/bench's server, internal/mariadbproc's mariadbd) share: a
// free loopback port to give the child, and the end of its log for an
// error message when it does not come up.
package childproc

import (
	"io"
	"net"
	"os"
	"strings"
)

// FreePort is a TCP port on 127.0.0.1 that nothing listened on a moment ago.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// LogTail is the last n lines of the file at path ("" when it cannot be
// read).
func LogTail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
