// Package natstest starts Debian's nats-server (scripts/sites/nats.sh installs it)
// for tests of the work queue: an external server, beside the one trawl embeds.
package natstest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Server starts nats-server with JetStream on 127.0.0.1:port, its store in a
// temporary directory, stopped when the test ends, and returns its URL. It returns ""
// when nats-server is not installed (the caller tests the embedded server only), and
// fails the test then if TRAWL_REQUIRE_NATS is set (as CI does).
func Server(t testing.TB, port int) string {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if os.Getenv("TRAWL_REQUIRE_NATS") != "" {
			t.Fatalf("TRAWL_REQUIRE_NATS is set but nats-server is missing (scripts/sites/nats.sh installs it): %v", err)
		}
		t.Log("nats-server is not installed (scripts/sites/nats.sh): testing the embedded server only")
		return ""
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	if c, err := net.Dial("tcp", addr); err == nil {
		_ = c.Close()
		t.Fatalf("port %d is taken: another test's nats-server still runs?", port)
	}
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-js", "-sd", t.TempDir())
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("nats-server log:\n%s", log.String())
		}
	})
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
			return "nats://" + addr
		}
		if i > 200 {
			t.Fatalf("nats-server did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
