package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Job is one message of the queue: a form to run the pipeline on.
type Job struct {
	// Key identifies the job within its batch (the run directory's name). Enqueuing
	// a key twice yields one job.
	Key string `json:"key"`
	// Line is the job's line in the jobs file, for messages.
	Line int `json:"line"`
	// URL is the form page.
	URL string `json:"url"`
	// Settings are the job's key=value settings, the batch's defaults first.
	Settings []string `json:"settings,omitempty"`
	// Delay is the least time between two requests to the job's origin; a job waits
	// this long after the previous job of its origin ended.
	Delay time.Duration `json:"delay_ns"`
}

// Origin returns scheme://host[:port] of the job's URL: the unit of politeness.
func (j Job) Origin() string {
	u, err := url.Parse(j.URL)
	if err != nil || u.Host == "" {
		return j.URL
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// Job states.
const (
	StateQueued  = "queued"
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// Status is the state of one job, kept in the bucket trawl_status.
type Status struct {
	Key   string `json:"key"`
	Line  int    `json:"line"`
	URL   string `json:"url"`
	State string `json:"state"`
	// Stage is the pipeline stage a running job is in, or the last one it finished.
	Stage string `json:"stage,omitempty"`
	// Worker names the worker that runs (or ran) the job.
	Worker string `json:"worker,omitempty"`
	// Attempts counts the starts of the job; Completions its successful ends (1 for
	// a job done exactly once).
	Attempts    int `json:"attempts"`
	Completions int `json:"completions"`
	// Error says why the job failed, or why its last attempt was released.
	Error    string          `json:"error,omitempty"`
	Started  *time.Time      `json:"started,omitempty"`
	Finished *time.Time      `json:"finished,omitempty"`
	Updated  time.Time       `json:"updated"`
	Seconds  float64         `json:"seconds,omitempty"`
	Summary  json.RawMessage `json:"summary,omitempty"`
}

// Final reports whether the job ended (done or failed).
func (s Status) Final() bool { return s.State == StateDone || s.State == StateFailed }

func (q *Queue) statusKey(key string) string { return q.o.Batch + "." + key }

// getStatus reads a job's status and its revision (0 when there is none).
func (q *Queue) getStatus(ctx context.Context, key string) (Status, uint64, error) {
	e, err := q.status.Get(ctx, q.statusKey(key))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Status{}, 0, nil
	}
	if err != nil {
		return Status{}, 0, fmt.Errorf("queue: read the status of %s: %w", key, err)
	}
	var s Status
	if err := json.Unmarshal(e.Value(), &s); err != nil {
		return Status{}, 0, fmt.Errorf("queue: status of %s: %w", key, err)
	}
	return s, e.Revision(), nil
}

// putStatus writes a job's status; with rev > 0 only if nobody wrote it since
// (jetstream.ErrKeyExists otherwise).
func (q *Queue) putStatus(ctx context.Context, s Status, rev uint64) (uint64, error) {
	s.Updated = time.Now().UTC()
	b, err := json.Marshal(s)
	if err != nil {
		return 0, err
	}
	if rev > 0 {
		return q.status.Update(ctx, q.statusKey(s.Key), b, rev)
	}
	return q.status.Put(ctx, q.statusKey(s.Key), b)
}

// Enqueued counts what Enqueue did.
type Enqueued struct {
	// Added jobs were published; Duplicate ones were already in the stream (the
	// server dropped the message); Done ones had finished earlier and were skipped.
	Added, Duplicate, Done int
}

// Enqueue publishes one message per job not done yet, de-duplicated by batch and key,
// and marks it queued. A job that failed earlier is queued again with its attempts
// reset, as a new run of a batch retries its failed sources. With the embedded server,
// jobs a killed earlier run left running are queued again at once.
func (q *Queue) Enqueue(ctx context.Context, jobs []Job) (Enqueued, error) {
	var n Enqueued
	seen := map[string]int{}
	for _, j := range jobs {
		if !validKey(j.Key) {
			return n, fmt.Errorf("queue: line %d: job key %q: use letters, digits, -, _ and = only", j.Line, j.Key)
		}
		if prev, dup := seen[j.Key]; dup {
			return n, fmt.Errorf("queue: line %d: job key %s repeats line %d", j.Line, j.Key, prev)
		}
		seen[j.Key] = j.Line
	}
	for _, j := range jobs {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		st, rev, err := q.getStatus(ctx, j.Key)
		if err != nil {
			return n, err
		}
		if st.State == StateDone {
			n.Done++
			continue
		}
		body, err := json.Marshal(j)
		if err != nil {
			return n, err
		}
		// The message id is the job's key; it changes when a failed job is queued
		// again, so that the de-duplication window does not drop the retry.
		id := q.o.Batch + "/" + j.Key
		if st.State == StateFailed {
			id += fmt.Sprintf("/retry-%d", rev)
		}
		ack, err := q.js.Publish(ctx, q.subject(), body, jetstream.WithMsgID(id))
		if err != nil {
			return n, fmt.Errorf("queue: enqueue line %d (%s): %w", j.Line, j.URL, err)
		}
		if ack.Duplicate {
			n.Duplicate++
		} else {
			n.Added++
		}
		if st.State == StateRunning && q.srv == nil {
			continue // a worker has it
		}
		ns := Status{Key: j.Key, Line: j.Line, URL: j.URL, State: StateQueued}
		if st.State == StateFailed {
			ns.Error = "earlier run failed: " + st.Error
		}
		if _, err := q.putStatus(ctx, ns, 0); err != nil {
			return n, fmt.Errorf("queue: status of line %d: %w", j.Line, err)
		}
	}
	return n, nil
}

// validKey reports whether s may be the last token of a KV key.
func validKey(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '=') {
			return false
		}
	}
	return true
}

// Statuses returns the status of every job of the batch, by line then key.
func (q *Queue) Statuses(ctx context.Context) ([]Status, error) {
	w, err := q.status.Watch(ctx, q.o.Batch+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("queue: read the status of batch %s: %w", q.o.Batch, err)
	}
	defer func() { _ = w.Stop() }()
	var out []Status
	for {
		select {
		case e := <-w.Updates():
			if e == nil { // the initial values are all in
				sortStatuses(out)
				return out, nil
			}
			var s Status
			if err := json.Unmarshal(e.Value(), &s); err != nil {
				return nil, fmt.Errorf("queue: status %s: %w", e.Key(), err)
			}
			out = append(out, s)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func sortStatuses(ss []Status) {
	slices.SortFunc(ss, func(a, b Status) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Key, b.Key)
	})
}

// Follow calls fn with the statuses of the jobs whose keys are given each time one
// of them changes, and returns once all of them are done or failed (or ctx ends).
func (q *Queue) Follow(ctx context.Context, keys []string, fn func([]Status)) ([]Status, error) {
	w, err := q.status.Watch(ctx, q.o.Batch+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("queue: follow batch %s: %w", q.o.Batch, err)
	}
	defer func() { _ = w.Stop() }()
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	cur := map[string]Status{}
	snapshot := func() []Status {
		out := make([]Status, 0, len(cur))
		for _, s := range cur {
			out = append(out, s)
		}
		sortStatuses(out)
		return out
	}
	final := func() bool {
		for k := range want {
			if s, ok := cur[k]; !ok || !s.Final() {
				return false
			}
		}
		return true
	}
	initial := true
	for {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return snapshot(), fmt.Errorf("queue: the status watch of batch %s ended", q.o.Batch)
			}
			if e != nil {
				var s Status
				if err := json.Unmarshal(e.Value(), &s); err != nil {
					return nil, fmt.Errorf("queue: status %s: %w", e.Key(), err)
				}
				if !want[s.Key] {
					continue
				}
				cur[s.Key] = s
				if initial {
					continue
				}
			} else {
				initial = false
			}
			snap := snapshot()
			if fn != nil {
				fn(snap)
			}
			if final() {
				return snap, nil
			}
		case <-ctx.Done():
			return snapshot(), ctx.Err()
		}
	}
}
