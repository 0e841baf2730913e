package queue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue/natstest"
)

// natsServer is a NATS server for a test: the embedded one (listening on a free port, so
// that several clients connect as separate workers would) or Debian's nats-server.
type natsServer struct {
	name string
	// open connects a new client (a new worker) to the server.
	open func(t *testing.T, o Options) *Queue
}

// servers returns the embedded server and, where installed, an external nats-server.
func servers(t *testing.T, only ...string) []natsServer {
	t.Helper()
	store := t.TempDir()
	var first *Queue
	embedded := natsServer{name: "embedded", open: func(t *testing.T, o Options) *Queue {
		t.Helper()
		if first == nil {
			o.StoreDir, o.Listen = store, "127.0.0.1:0"
			first = openQueue(t, o)
			return first
		}
		o.URL = first.ClientURL()
		return openQueue(t, o)
	}}
	ss := []natsServer{embedded}
	if len(only) > 0 {
		return ss
	}
	if url := natstest.Server(t, 18141); url != "" {
		ss = append(ss, natsServer{name: "nats-server", open: func(t *testing.T, o Options) *Queue {
			t.Helper()
			o.URL = url
			return openQueue(t, o)
		}})
	}
	return ss
}

func openQueue(t *testing.T, o Options) *Queue {
	t.Helper()
	q, err := Open(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	return q
}

func testOptions(batch string) Options {
	o := DefaultOptions()
	o.Batch = batch
	o.AckWait = 2 * time.Second
	return o
}

// jobsOn returns n jobs spread over the origins.
func jobsOn(n int, origins ...string) []Job {
	var jobs []Job
	for i := range n {
		o := origins[i%len(origins)]
		jobs = append(jobs, Job{Key: fmt.Sprintf("job-%02d", i), Line: i + 1, URL: fmt.Sprintf("%s/form%d", o, i)})
	}
	return jobs
}

// tracker records the runs of a runner: how often each job ran and the most jobs of
// one origin running at once.
type tracker struct {
	mu      sync.Mutex
	runs    map[string]int
	running map[string]int
	peak    map[string]int
}

func newTracker() *tracker {
	return &tracker{runs: map[string]int{}, running: map[string]int{}, peak: map[string]int{}}
}

func (tr *tracker) runner(d time.Duration) Runner {
	return func(ctx context.Context, j Job, stage func(string)) (any, error) {
		tr.mu.Lock()
		tr.runs[j.Key]++
		tr.running[j.Origin()]++
		tr.peak[j.Origin()] = max(tr.peak[j.Origin()], tr.running[j.Origin()])
		tr.mu.Unlock()
		defer func() {
			tr.mu.Lock()
			tr.running[j.Origin()]--
			tr.mu.Unlock()
		}()
		stage("probe")
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %v", ErrRelease, ctx.Err())
		}
		return map[string]string{"url": j.URL}, nil
	}
}

// workers runs n workers until the queue stays idle for idle.
func workers(t *testing.T, n int, idle time.Duration, open func() *Queue, run Runner) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		q := open()
		wg.Go(func() {
			wo := DefaultWorkOptions()
			wo.Name = fmt.Sprintf("w%d", i)
			wo.Poll = 200 * time.Millisecond
			wo.StopWhenIdle = idle
			if err := q.Work(t.Context(), wo, run); err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("worker %d: %v", i, err)
			}
		})
	}
	wg.Wait()
}

// TestExactlyOnce: jobs enqueued twice run once each, on three workers, never two of
// one origin at a time, and all end done.
func TestExactlyOnce(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			o := testOptions("once")
			q := srv.open(t, o)
			jobs := jobsOn(9, "http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3")
			n, err := q.Enqueue(t.Context(), jobs)
			if err != nil || n.Added != 9 {
				t.Fatalf("enqueue: %+v, %v", n, err)
			}
			n, err = q.Enqueue(t.Context(), jobs)
			if err != nil || n.Added != 0 || n.Duplicate != 9 {
				t.Fatalf("enqueue again: %+v, %v (want 9 duplicates)", n, err)
			}
			tr := newTracker()
			workers(t, 3, time.Second, func() *Queue { return srv.open(t, o) }, tr.runner(100*time.Millisecond))
			for _, j := range jobs {
				if tr.runs[j.Key] != 1 {
					t.Errorf("%s ran %d times", j.Key, tr.runs[j.Key])
				}
			}
			for origin, p := range tr.peak {
				if p > 1 {
					t.Errorf("%s: %d jobs at once, limit 1", origin, p)
				}
			}
			ss, err := q.Statuses(t.Context())
			if err != nil || len(ss) != 9 {
				t.Fatalf("statuses: %d, %v", len(ss), err)
			}
			for _, s := range ss {
				if s.State != StateDone || s.Completions != 1 || s.Attempts != 1 || len(s.Summary) == 0 {
					t.Errorf("%s: %+v", s.Key, s)
				}
			}
			// A finished batch enqueued again runs nothing.
			if n, err = q.Enqueue(t.Context(), jobs); err != nil || n.Done != 9 {
				t.Errorf("enqueue a finished batch: %+v, %v", n, err)
			}
		})
	}
}

// TestDeadWorkerRedelivered: a worker that vanishes mid-job (its connection cut, no
// acknowledgement) loses the job to another worker after AckWait.
func TestDeadWorkerRedelivered(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			o := testOptions("dead")
			q := srv.open(t, o)
			if _, err := q.Enqueue(t.Context(), jobsOn(1, "http://127.0.0.1:1")); err != nil {
				t.Fatal(err)
			}
			dying := srv.open(t, o)
			started := make(chan struct{})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			go func() {
				_ = dying.Work(ctx, DefaultWorkOptions(), func(ctx context.Context, j Job, stage func(string)) (any, error) {
					close(started)
					<-ctx.Done()
					return nil, ctx.Err()
				})
			}()
			<-started
			dying.nc.Close() // as SIGKILL would: no ack, no nak, no heartbeat
			begin := time.Now()
			tr := newTracker()
			workers(t, 1, 2*o.AckWait, func() *Queue { return srv.open(t, o) }, tr.runner(50*time.Millisecond))
			if tr.runs["job-00"] != 1 {
				t.Fatalf("the job ran %d times on the second worker", tr.runs["job-00"])
			}
			ss, err := q.Statuses(t.Context())
			if err != nil || len(ss) != 1 || ss[0].State != StateDone || ss[0].Attempts != 2 || ss[0].Completions != 1 {
				t.Fatalf("status %+v, %v; want done after 2 attempts", ss, err)
			}
			t.Logf("redelivered and done %v after the first worker died (AckWait %v)", time.Since(begin).Round(time.Millisecond), o.AckWait)
		})
	}
}

// TestFailAndRelease: a runner error fails the job with its reason; a released job
// runs again.
func TestFailAndRelease(t *testing.T) {
	srv := servers(t, "embedded")[0]
	o := testOptions("fail")
	q := srv.open(t, o)
	jobs := []Job{{Key: "bad", Line: 1, URL: "http://127.0.0.1:1/a"}, {Key: "flaky", Line: 2, URL: "http://127.0.0.1:2/b"}}
	if _, err := q.Enqueue(t.Context(), jobs); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	tries := map[string]int{}
	workers(t, 1, time.Second, func() *Queue { return q }, func(ctx context.Context, j Job, stage func(string)) (any, error) {
		mu.Lock()
		tries[j.Key]++
		n := tries[j.Key]
		mu.Unlock()
		if j.Key == "bad" {
			return nil, errors.New("the form is not a search form")
		}
		if n == 1 {
			return nil, fmt.Errorf("%w: the browser went away", ErrRelease)
		}
		return nil, nil
	})
	ss, err := q.Statuses(t.Context())
	if err != nil || len(ss) != 2 {
		t.Fatal(ss, err)
	}
	if ss[0].State != StateFailed || ss[0].Error != "the form is not a search form" || tries["bad"] != 1 {
		t.Errorf("bad: %+v after %d tries", ss[0], tries["bad"])
	}
	if ss[1].State != StateDone || ss[1].Attempts != 2 || tries["flaky"] != 2 {
		t.Errorf("flaky: %+v after %d tries", ss[1], tries["flaky"])
	}
	// Queued again, the failed job runs again and the done one does not.
	n, err := q.Enqueue(t.Context(), jobs)
	if err != nil || n.Added != 1 || n.Done != 1 {
		t.Errorf("enqueue again: %+v, %v", n, err)
	}
}

// TestOriginDelay: the second job of an origin starts no earlier than the job's delay
// after the first ended, on another worker.
func TestOriginDelay(t *testing.T) {
	srv := servers(t, "embedded")[0]
	o := testOptions("delay")
	q := srv.open(t, o)
	jobs := jobsOn(2, "http://127.0.0.1:9")
	for i := range jobs {
		jobs[i].Delay = 700 * time.Millisecond
	}
	if _, err := q.Enqueue(t.Context(), jobs); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var spans [][2]time.Time
	workers(t, 2, 2*time.Second, func() *Queue { return srv.open(t, o) }, func(ctx context.Context, j Job, stage func(string)) (any, error) {
		s := time.Now()
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		spans = append(spans, [2]time.Time{s, time.Now()})
		mu.Unlock()
		return nil, nil
	})
	if len(spans) != 2 {
		t.Fatalf("%d runs", len(spans))
	}
	if gap := spans[1][0].Sub(spans[0][1]); gap < 700*time.Millisecond {
		t.Errorf("the second job started %v after the first ended, want ≥ 700ms", gap)
	}
}

func TestResultsRoundTrip(t *testing.T) {
	q := servers(t, "embedded")[0].open(t, testOptions("results"))
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"records.jsonl": "{\"a\":1}\n", "pages/0001-1.html": "<html></html>"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.PutResult(t.Context(), "site-a", dir); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	keys, err := q.Collect(t.Context(), out)
	if err != nil || len(keys) != 1 || keys[0] != "site-a" {
		t.Fatalf("collect: %v, %v", keys, err)
	}
	for name, body := range files {
		b, err := os.ReadFile(filepath.Join(out, "site-a", name))
		if err != nil || string(b) != body {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) {}, "StoreDir is required"},
		{func(o *Options) { o.URL = "http://x:4222" }, "want nats://host:port"},
		{func(o *Options) { o.URL, o.Batch = "nats://x:4222", "a.b" }, "batch name"},
		{func(o *Options) { o.URL, o.AckWait = "nats://x:4222", time.Millisecond }, "AckWait"},
		{func(o *Options) { o.URL, o.Listen = "nats://x:4222", ":4222" }, "embedded server only"},
	} {
		o := DefaultOptions()
		tc.edit(&o)
		if err := o.Validate(); err == nil || !contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", o, err, tc.want)
		}
	}
	if BatchName("my jobs.txt") != "my-jobs-txt" || BatchName("../") != "default" {
		t.Errorf("BatchName: %q %q", BatchName("my jobs.txt"), BatchName("../"))
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
