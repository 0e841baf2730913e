//go:build unix

package probe

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// remotePort is the DevTools port of the remote-browser test (scripts/sites/nats.sh
// lists the ports of issue 17).
const remotePort = 18145

// TestConnectRemote: a Chromium started apart (as on a browser-pool machine) is used
// through Connect, and its death is seen by Lost.
func TestConnectRemote(t *testing.T) {
	needBrowser(t)
	bin, err := FindChrome("")
	if err != nil {
		t.Fatal(err)
	}
	// The profile directory is removed by the test itself, after the browser's whole
	// process group is gone: Chromium's helper processes outlive a kill of the main
	// one for a moment and keep writing into it (t.TempDir's cleanup then fails).
	profile, err := os.MkdirTemp("", "trawl-remote-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-background-networking",
		fmt.Sprintf("--remote-debugging-port=%d", remotePort), "--remote-debugging-address=127.0.0.1",
		"--user-data-dir="+profile, "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killGroup := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	t.Cleanup(func() {
		killGroup()
		_ = cmd.Wait()
		for i := 0; ; i++ {
			err := os.RemoveAll(profile)
			if err == nil {
				return
			}
			if i >= 50 {
				t.Errorf("remove the remote browser's profile: %v", err)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", remotePort)
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			break
		}
		if i > 200 {
			t.Fatalf("chromium does not listen on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	site, _ := testsites.ByName("bookshop")
	srv := site.NewServer()
	defer srv.Close()
	o := DefaultOptions()
	o.Delay, o.IgnoreRobots = 0, true
	b, err := Connect(t.Context(), "ws://"+addr, o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := NewProber(b, o)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := p.Open(t.Context(), srv.URL+"/search?q=the")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pg.HTML, "data-record") {
		t.Fatalf("the remote browser's page has no records (%d bytes)", len(pg.HTML))
	}
	if b.Lost() {
		t.Fatal("Lost before the browser died")
	}
	killGroup()
	deadline := time.Now().Add(10 * time.Second)
	for !b.Lost() {
		if time.Now().After(deadline) {
			t.Fatal("Lost stays false after the remote browser was killed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := p.Open(t.Context(), srv.URL+"/search?q=a"); err == nil {
		t.Error("a lost browser still opens pages")
	}
	p.Close()
	if _, err := Connect(t.Context(), "ftp://"+addr, o); err == nil || !strings.Contains(err.Error(), "want ws://") {
		t.Errorf("Connect(ftp://…) = %v", err)
	}
}
