package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// Job is one form of a batch.
type Job struct {
	// Line is the job's line in the jobs file.
	Line int
	// Options are the job's pipeline options (URL and Dir set).
	Options Options
	// Settings are the job line's key=value settings (Options.Set), for workers that
	// start from their own defaults.
	Settings []string
}

// JobStatus is the state of one job, in batch.json and the final table.
type JobStatus struct {
	Line     int    `json:"line"`
	URL      string `json:"url"`
	Dir      string `json:"dir"`
	State    string `json:"state"` // queued, running, done, failed (queue.State…)
	Worker   string `json:"worker,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	// Completions counts the job's successful ends (1: done exactly once).
	Completions int        `json:"completions,omitempty"`
	Stage       string     `json:"stage,omitempty"`
	Error       string     `json:"error,omitempty"`
	Seconds     float64    `json:"seconds,omitempty"`
	Summary     *Summary   `json:"summary,omitempty"`
	Finished    *time.Time `json:"finished,omitempty"`
}

// BatchFile is the state of a batch's jobs, in its output directory.
const BatchFile = "batch.json"

// BatchOptions configure RunBatch.
type BatchOptions struct {
	// Out is the output directory; batch.json goes there.
	Out string
	// Concurrency is the number of jobs this process runs at the same time, in one
	// Chromium (0: workers of other processes run them).
	Concurrency int
	// Defaults are the options every job starts from; Settings the key=value settings
	// that changed them, sent with every job for workers elsewhere.
	Defaults Options
	Settings []string
	// Browsers are running Chromium instances for this process's jobs (none: start one).
	Browsers []string
	// Detach returns once the jobs are enqueued.
	Detach bool
	// Enqueued, when set, is told how many jobs were added; Follow about the statuses
	// of all jobs whenever one changes.
	Enqueued func(queue.Enqueued)
	Follow   func([]JobStatus)
	Logger   *slog.Logger
}

// RunBatch enqueues the jobs on q (one message each, by run directory name, so that a
// job already queued or done is not added again), runs o.Concurrency of them at a time
// in this process, follows all of them until they end (workers of other processes may
// run them too) and keeps <out>/batch.json current. A failed job does not stop the
// others. It returns the state of every job; the error is what stopped the batch
// (interrupted, no worker, batch.json not writable).
func RunBatch(ctx context.Context, q *queue.Queue, jobs []Job, o BatchOptions) ([]JobStatus, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	qjobs := make([]queue.Job, len(jobs))
	keys := make([]string, len(jobs))
	for i, j := range jobs {
		keys[i] = filepath.Base(j.Options.Dir)
		qjobs[i] = queue.Job{Key: keys[i], Line: j.Line, URL: j.Options.URL,
			Settings: append(slices.Clone(o.Settings), j.Settings...), Delay: j.Options.Probe.Delay}
	}
	n, err := q.Enqueue(ctx, qjobs)
	if err != nil {
		return nil, err
	}
	if o.Enqueued != nil {
		o.Enqueued(n)
	}
	if o.Detach {
		return nil, nil
	}

	// Local workers, sharing one browser.
	wctx, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	var (
		wg   sync.WaitGroup
		werr error
	)
	if o.Concurrency > 0 {
		r, err := NewRunner(q, RunnerOptions{Base: o.Defaults, Out: o.Out, Browsers: o.Browsers, Logger: o.Logger})
		if err != nil {
			return nil, err
		}
		defer r.Close()
		wo := queue.DefaultWorkOptions()
		wo.Concurrency, wo.Poll = o.Concurrency, 500*time.Millisecond
		wg.Go(func() {
			if err := q.Work(wctx, wo, r.Run); err != nil && !errors.Is(err, context.Canceled) {
				werr = err
				stopWorkers()
			}
		})
	}

	// Follow the jobs until all ended, keeping batch.json current.
	save := func(ss []JobStatus) error {
		return rundir.WriteJSON(filepath.Join(o.Out, BatchFile), ss)
	}
	final, ferr := q.Follow(wctx, keys, func(ss []queue.Status) {
		st := Statuses(o.Out, ss)
		if err := save(st); err != nil {
			o.Logger.Warn("write batch.json", "err", err)
		}
		if o.Follow != nil {
			o.Follow(st)
		}
	})
	stopWorkers()
	wg.Wait()
	status := Statuses(o.Out, final)
	if err := save(status); err != nil && ferr == nil {
		ferr = err
	}
	switch {
	case werr != nil:
		return status, werr
	case ctx.Err() != nil:
		return status, ctx.Err()
	}
	return status, ferr
}

// Statuses turns the queue's statuses into the rows of batch.json.
func Statuses(out string, ss []queue.Status) []JobStatus {
	rows := make([]JobStatus, 0, len(ss))
	for _, s := range ss {
		r := JobStatus{Line: s.Line, URL: s.URL, Dir: filepath.Join(out, s.Key), State: s.State, Stage: s.Stage,
			Worker: s.Worker, Attempts: s.Attempts, Completions: s.Completions, Error: s.Error, Seconds: s.Seconds, Finished: s.Finished}
		if len(s.Summary) > 0 {
			var sum Summary
			if json.Unmarshal(s.Summary, &sum) == nil {
				r.Summary = &sum
			}
		}
		rows = append(rows, r)
	}
	return rows
}
