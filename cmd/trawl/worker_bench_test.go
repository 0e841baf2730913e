package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWorkers measures jobs per minute of a batch of the six local test sites
// (queueJobs' small budgets) run by 1, 2 and 3 'trawl worker' processes, each with its
// own Chromium, on the embedded queue of 'trawl batch --listen'.
//
//	TRAWL_BROWSER_TESTS=1 go test ./cmd/trawl -run '^$' -bench Workers -benchtime 1x
func BenchmarkWorkers(b *testing.B) {
	if os.Getenv("TRAWL_BROWSER_TESTS") != "1" {
		b.Skip("browser benchmark: set TRAWL_BROWSER_TESTS=1")
	}
	for _, n := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			var rate float64
			for b.Loop() {
				rate = benchBatch(b, n)
			}
			b.ReportMetric(rate, "jobs/min")
		})
	}
}

func benchBatch(b *testing.B, n int) float64 {
	bin := buildTrawl(b)
	jobs := queueJobs(b)
	out := b.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", embeddedPort)
	start := time.Now()
	batch := startTrawl(b, bin, "batch", jobs, "--out", out, "--listen", addr, "--concurrency", "0", "-q")
	waitPort(b, addr)
	var ws []*proc
	for range n {
		ws = append(ws, startTrawl(b, bin, "worker", "--queue", "nats://"+addr, "--out", out, "-q"))
	}
	if err := batch.cmd.Wait(); err != nil {
		b.Fatalf("trawl batch: %v\n%s", err, batch.out)
	}
	el := time.Since(start)
	for _, w := range ws {
		_ = w.cmd.Process.Signal(syscall.SIGTERM)
		_ = w.cmd.Wait()
	}
	njobs := strings.Count(strings.TrimSpace(readFileB(b, jobs)), "\n") + 1
	return float64(njobs) / el.Minutes()
}

func readFileB(b *testing.B, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}
