// Command serve serves the local test sites on 127.0.0.1 for manual runs and
// benchmarks of trawl (tests use httptest instead):
//
//	go run ./internal/testsites/serve -port 18090
//
// prints one line per site: its name, the URL of its form page and its features. It
// serves until interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/trawl-dev/trawl/internal/testsites"
)

func main() {
	port := flag.Int("port", 18090, "port of the first site; the others follow")
	latency := flag.Duration("latency", 0, "delay every page and API answer by this much")
	only := flag.String("site", "", "serve only this site (a name, or \"hostile\")")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sites := append(testsites.All(), testsites.Hostile())
	var servers []*http.Server
	for i, s := range sites {
		if *only != "" && s.Name != *only {
			continue
		}
		s.SetLatency(*latency)
		addr := fmt.Sprintf("127.0.0.1:%d", *port+i)
		l, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
			os.Exit(1)
		}
		srv := &http.Server{Handler: s.Handler, ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, srv)
		go func() {
			if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
				fmt.Fprintln(os.Stderr, "serve:", err)
			}
		}()
		fmt.Printf("%-10s http://%s%s\t%s\n", s.Name, addr, s.FormPath, strings.Join(s.Features, ","))
	}
	<-ctx.Done()
	for _, srv := range servers {
		_ = srv.Close() // exiting anyway
	}
}
