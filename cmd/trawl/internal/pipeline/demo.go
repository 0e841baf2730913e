package pipeline

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

// DemoOptions are the pipeline settings of 'trawl demo': a local site of our own,
// so no delay between requests, and budgets that keep the whole run well under a
// minute on two cores.
func DemoOptions() Options {
	o := DefaultOptions()
	o.Probe.Delay = 0
	o.Probe.MaxProbes = 15
	o.Probe.MaxPages = 40
	o.Probe.MaxPagesPerProbe = 3
	o.Probe.Tabs = 2
	o.Schema.MaxSubmissions = 32
	o.Rounds = 1
	o.GuidedValues = 4
	return o
}

// ServeSite serves site on 127.0.0.1:port, or on another free port when that one is
// busy, and returns the URL of its form; stop shuts the server down.
func ServeSite(site *testsites.Site, port int) (formURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return "", nil, err
		}
	}
	srv := &http.Server{Handler: site.Handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	stop = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}
	return "http://" + ln.Addr().String() + site.FormPath, stop, nil
}
