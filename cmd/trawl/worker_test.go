package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue/natstest"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/runtest"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/testsites"
)

// Ports of the work-queue tests (scripts/sites/nats.sh): 18142 Debian's nats-server,
// 18143 the embedded server of 'trawl batch --listen', 18144 the politeness test.
const (
	natsPort     = 18142
	embeddedPort = 18143
	politePort   = 18144
)

var (
	buildOnce sync.Once
	trawlBin  string
	buildErr  error
)

// buildTrawl builds bin/trawl once per test run (without -race: the worker processes
// are many and the race detector tests the packages themselves).
func buildTrawl(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trawl-bin-")
		if err != nil {
			buildErr = err
			return
		}
		trawlBin = filepath.Join(dir, "trawl")
		out, err := exec.Command("go", "build", "-o", trawlBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return trawlBin
}

// queueJobs serves the local test sites and writes a jobs file with small budgets.
func queueJobs(t testing.TB) string {
	t.Helper()
	var lines []string
	for _, s := range testsites.All() {
		srv := httptest.NewServer(s.Handler)
		t.Cleanup(srv.Close)
		opts := "max-probes=4 pages-per-probe=1 rounds=0 delay=0s resubmit=false no-report=true ignore-robots=true"
		if s.Method == "POST" {
			opts += " allow-post=true"
		}
		lines = append(lines, srv.URL+s.FormPath+" "+opts)
	}
	path := filepath.Join(t.TempDir(), "jobs.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// proc is a trawl process of a test.
type proc struct {
	cmd  *exec.Cmd
	out  *strings.Builder
	name string // the worker's name in statuses
}

func startTrawl(t testing.TB, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), out: &strings.Builder{}}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	p.name = fmt.Sprintf("%s-%d", host, p.cmd.Process.Pid)
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	})
	return p
}

func waitPort(t testing.TB, addr string) {
	t.Helper()
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return
		}
		if i > 300 {
			t.Fatalf("nothing listens on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitStatus polls the batch's statuses until ok holds.
func waitStatus(t *testing.T, q *queue.Queue, what string, ok func([]queue.Status) bool) []queue.Status {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		ss, err := q.Statuses(t.Context())
		if err == nil && ok(ss) {
			return ss
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting until %s", what)
	return nil
}

// TestWorkersOverQueue: a batch of the six local test sites on a real NATS server (the
// embedded one of 'trawl batch --listen', and Debian's nats-server), run by three
// 'trawl worker' processes: one killed with SIGKILL during its first job, one started
// late. Every job ends done exactly once, the killed job is redelivered and finished
// by another worker, the late worker takes jobs, and records.jsonl and graph.nt (with
// the alignment files) equal those of a single-process batch.
func TestWorkersOverQueue(t *testing.T) {
	runtest.NeedBrowser(t)
	if testing.Short() {
		t.Skip("-short: three worker processes with a browser each take a minute")
	}
	bin := buildTrawl(t)
	jobs := queueJobs(t)
	want := t.TempDir()
	start := time.Now()
	if b, err := exec.Command(bin, "batch", jobs, "--out", want, "--concurrency", "2", "-q").CombinedOutput(); err != nil {
		t.Fatalf("single-process batch: %v\n%s", err, b)
	}
	t.Logf("single-process batch (embedded queue, 2 jobs at a time): %v", time.Since(start).Round(time.Millisecond))
	wantFiles := comparable(t, want)

	servers := []struct{ name, url string }{{"embedded", ""}}
	if url := natstest.Server(t, natsPort); url != "" {
		servers = append(servers, struct{ name, url string }{"nats-server", url})
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			got := t.TempDir()
			url := srv.url
			args := []string{"batch", jobs, "--out", got, "--ack-wait", "3s", "-q"}
			if url == "" {
				addr := fmt.Sprintf("127.0.0.1:%d", embeddedPort)
				args = append(args, "--listen", addr, "--concurrency", "0")
				url = "nats://" + addr
			} else {
				args = append(args, "--queue", url)
			}
			start := time.Now()
			batch := startTrawl(t, bin, args...)
			waitPort(t, strings.TrimPrefix(url, "nats://"))
			qo := queue.DefaultOptions()
			qo.URL = url
			var q *queue.Queue
			var err error
			for range 50 { // the batch configures the queue first
				if q, err = queue.Open(t.Context(), qo); err == nil {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			worker := func() *proc {
				return startTrawl(t, bin, "worker", "--queue", url, "--out", got, "-q")
			}
			w1, w2 := worker(), worker()
			// Kill w1 during its first job.
			ss := waitStatus(t, q, w1.name+" runs a job", func(ss []queue.Status) bool {
				return slices.ContainsFunc(ss, func(s queue.Status) bool { return s.State == queue.StateRunning && s.Worker == w1.name })
			})
			killed := ""
			for _, s := range ss {
				if s.State == queue.StateRunning && s.Worker == w1.name {
					killed = s.Key
				}
			}
			time.Sleep(500 * time.Millisecond) // into the job's pages
			if err := w1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			t.Logf("killed %s during %s", w1.name, killed)
			// A third worker joins once a job is done.
			waitStatus(t, q, "a job is done", func(ss []queue.Status) bool {
				return slices.ContainsFunc(ss, func(s queue.Status) bool { return s.State == queue.StateDone })
			})
			w3 := worker()
			if err := batch.cmd.Wait(); err != nil {
				t.Fatalf("trawl batch: %v\n%s", err, batch.out)
			}
			t.Logf("batch with 3 workers (one killed, one late): %v", time.Since(start).Round(time.Millisecond))
			for _, w := range []*proc{w2, w3} {
				_ = w.cmd.Process.Signal(syscall.SIGTERM)
				if err := w.cmd.Wait(); err != nil {
					t.Errorf("worker %s: %v\n%s", w.name, err, w.out)
				}
			}
			var rows []pipeline.JobStatus // what the batch saw last, the embedded server gone with it
			if err := rundir.ReadJSON(filepath.Join(got, pipeline.BatchFile), &rows); err != nil {
				t.Fatal(err)
			}
			byWorker := map[string]int{}
			for _, s := range rows {
				key := filepath.Base(s.Dir)
				byWorker[s.Worker]++
				if s.State != queue.StateDone || s.Completions != 1 {
					t.Errorf("%s: %s, done %d times (%s)", key, s.State, s.Completions, s.Error)
				}
				if key == killed && (s.Attempts != 2 || s.Worker == w1.name) {
					t.Errorf("the killed job %s: %d attempts, finished by %s; want 2 attempts, another worker", key, s.Attempts, s.Worker)
				}
			}
			if len(rows) != len(wantFiles)/5 {
				t.Errorf("%d statuses for %d jobs", len(rows), len(wantFiles)/5)
			}
			if byWorker[w3.name] == 0 {
				t.Errorf("the late worker took no job (jobs per worker: %v)", byWorker)
			}
			t.Logf("jobs per worker: %v", byWorker)
			gotFiles := comparable(t, got)
			for name, w := range wantFiles {
				if gotFiles[name] != w {
					t.Errorf("%s differs from the single-process batch (%d vs %d bytes)", name, len(gotFiles[name]), len(w))
				}
			}
		})
	}
}

// requestLog records when a site answered each page or script request, and for which
// job (the form page's path, or the cookie it set in that worker's browser).
type requestLog struct {
	mu    sync.Mutex
	times []time.Time
	jobs  []string
	paths []string
}

// TestWorkersPoliteOrigin: three jobs on one origin, two workers, a delay of 300 ms:
// the site sees the requests of one job at a time (no two workers probe it at once),
// and the next job's first request comes at least the delay after the last one of the
// job before.
func TestWorkersPoliteOrigin(t *testing.T) {
	runtest.NeedBrowser(t)
	if testing.Short() {
		t.Skip("-short: two worker processes with a browser each")
	}
	bin := buildTrawl(t)
	site, err := testsites.ByName("bookshop")
	if err != nil {
		t.Fatal(err)
	}
	var rl requestLog
	// /j1/, /j2/ … serve the form page: three jobs (three run directories) of one
	// origin; the form submits to /search on the same origin.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		job := ""
		if c, err := r.Cookie("job"); err == nil {
			job = c.Value
		}
		if strings.HasPrefix(r.URL.Path, "/j") {
			job = strings.Trim(r.URL.Path, "/")
			http.SetCookie(w, &http.Cookie{Name: "job", Value: job, Path: "/"})
		}
		if d := r.Header.Get("Sec-Fetch-Dest"); d == "document" || d == "empty" {
			rl.mu.Lock()
			rl.times = append(rl.times, time.Now())
			rl.jobs = append(rl.jobs, job)
			rl.paths = append(rl.paths, r.URL.Path)
			rl.mu.Unlock()
		}
		if strings.HasPrefix(r.URL.Path, "/j") {
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/"
			site.Handler.ServeHTTP(w, r2)
			return
		}
		site.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	const delay = 300 * time.Millisecond
	var lines []string
	for i := range 3 {
		lines = append(lines, fmt.Sprintf("%s/j%d/ max-probes=3 pages-per-probe=1 rounds=0 resubmit=false no-report=true ignore-robots=true delay=%v", srv.URL, i+1, delay))
	}
	jobs := filepath.Join(t.TempDir(), "jobs.txt")
	if err := os.WriteFile(jobs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", politePort)
	batch := startTrawl(t, bin, "batch", jobs, "--out", out, "--listen", addr, "--concurrency", "0", "-q")
	waitPort(t, addr)
	var ws []*proc
	for range 2 {
		ws = append(ws, startTrawl(t, bin, "worker", "--queue", "nats://"+addr, "--out", out, "-q"))
	}
	done := make(chan error, 1)
	go func() { done <- batch.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("trawl batch: %v\n%s", err, batch.out)
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the batch did not end in 3 minutes\n%s", batch.out)
	}
	for _, w := range ws {
		_ = w.cmd.Process.Signal(syscall.SIGTERM)
		_ = w.cmd.Wait()
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	// Each job's requests form one span; spans must not overlap, and one starts at
	// least the delay after the one before ended.
	type span struct{ first, last time.Time }
	spans := map[string]*span{}
	var order []string
	for i, j := range rl.jobs {
		if j == "" {
			t.Errorf("request %d (%s) belongs to no job", i, rl.paths[i])
			continue
		}
		if sp, ok := spans[j]; ok {
			sp.last = rl.times[i]
			if order[len(order)-1] != j {
				t.Errorf("request %d (%s) of %s comes after requests of %s: two jobs of one origin at once", i, rl.paths[i], j, order[len(order)-1])
			}
			continue
		}
		spans[j] = &span{rl.times[i], rl.times[i]}
		order = append(order, j)
	}
	if len(order) != 3 {
		t.Errorf("requests of %d jobs (%v), want 3", len(order), order)
	}
	for i := 1; i < len(order); i++ {
		gap := spans[order[i]].first.Sub(spans[order[i-1]].last)
		if gap < delay {
			t.Errorf("%s began %v after %s ended, want ≥ %v", order[i], gap.Round(time.Millisecond), order[i-1], delay)
		}
		t.Logf("%s began %v after %s ended", order[i], gap.Round(time.Millisecond), order[i-1])
	}
	if t.Failed() {
		for i := range rl.times {
			t.Logf("%8v %s %s", rl.times[i].Sub(rl.times[0]).Round(time.Millisecond), rl.jobs[i], rl.paths[i])
		}
	}
}
