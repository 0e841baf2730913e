package pipeline

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// Job is one form of a batch.
type Job struct {
	// Line is the job's line in the jobs file.
	Line int
	// Options are the job's pipeline options (URL and Dir set).
	Options Options
}

// JobStatus is the state of one job, in batch.json and the final table.
type JobStatus struct {
	Line     int        `json:"line"`
	URL      string     `json:"url"`
	Dir      string     `json:"dir"`
	State    string     `json:"state"` // pending, running, done, failed
	Stage    string     `json:"stage,omitempty"`
	Error    string     `json:"error,omitempty"`
	Seconds  float64    `json:"seconds,omitempty"`
	Summary  *Summary   `json:"summary,omitempty"`
	Finished *time.Time `json:"finished,omitempty"`
}

// BatchFile is the state of a batch's jobs, in its output directory.
const BatchFile = "batch.json"

// BatchOptions configure RunBatch.
type BatchOptions struct {
	// Out is the output directory; batch.json goes there.
	Out string
	// Concurrency is the number of jobs run at the same time.
	Concurrency int
	// Browser configures the one Chromium the jobs share.
	Browser probe.Options
	// Progress, when set, is told about every stage of every job; Done, about every
	// job that ends, with the counts so far.
	Progress func(job Job, ev Event)
	Done     func(job Job, st JobStatus, done, failed int)
	Logger   *slog.Logger
}

// RunBatch runs the pipeline of every job, o.Concurrency at a time, in one Chromium
// started when the first job needs it, and keeps <out>/batch.json up to date. A failed
// job does not stop the others. It returns the state of every job; the error is what
// stopped the batch (no browser, interrupted, batch.json not writable).
func RunBatch(ctx context.Context, jobs []Job, o BatchOptions) ([]JobStatus, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	b := &batch{o: o, jobs: jobs, status: make([]JobStatus, len(jobs))}
	for i, j := range jobs {
		b.status[i] = JobStatus{Line: j.Line, URL: j.Options.URL, Dir: j.Options.Dir, State: "pending"}
	}
	defer b.close()
	if err := b.save(); err != nil {
		return b.status, err
	}
	err := b.run(ctx)
	return b.status, err
}

// batch is the state of RunBatch.
type batch struct {
	o    BatchOptions
	jobs []Job

	mu           sync.Mutex
	status       []JobStatus
	done, failed int

	browserOnce sync.Once
	browser     *probe.Browser
	browserErr  error
}

// save writes batch.json.
func (b *batch) save() error {
	b.mu.Lock()
	st := slices.Clone(b.status)
	b.mu.Unlock()
	return rundir.WriteJSON(filepath.Join(b.o.Out, BatchFile), st)
}

// theBrowser starts the batch's Chromium once.
func (b *batch) theBrowser(ctx context.Context) (*probe.Browser, error) {
	b.browserOnce.Do(func() {
		po := b.o.Browser
		po.Logger = b.o.Logger
		b.browser, b.browserErr = probe.Start(ctx, po)
	})
	return b.browser, b.browserErr
}

func (b *batch) close() {
	if b.browser != nil {
		b.browser.Close()
	}
}

// run runs every job and returns the first error that stops the batch.
func (b *batch) run(ctx context.Context) error {
	eg := errgroup.Group{}
	eg.SetLimit(max(b.o.Concurrency, 1))
	for i := range b.jobs {
		if ctx.Err() != nil {
			break
		}
		eg.Go(func() error { return b.runJob(ctx, i) })
	}
	werr := eg.Wait()
	if err := b.save(); err != nil && werr == nil {
		werr = err
	}
	if werr == nil && ctx.Err() != nil {
		werr = ctx.Err()
	}
	return werr
}

// runJob runs the pipeline of job i and records how it went.
func (b *batch) runJob(ctx context.Context, i int) error {
	j := b.jobs[i]
	start := time.Now()
	b.setState(i, func(s *JobStatus) { s.State = "running" })
	_ = b.save()
	jo := j.Options
	if NeedsBrowser(jo.Dir, jo.NoReport) {
		br, err := b.theBrowser(ctx)
		if err != nil {
			return err // no browser: no job can run
		}
		jo.Browser = br
	}
	jo.Progress = func(ev Event) {
		b.setState(i, func(s *JobStatus) { s.Stage = ev.Stage })
		if b.o.Progress != nil {
			b.o.Progress(j, ev)
		}
	}
	p := New(jo, b.o.Logger.With("source", jo.Dir))
	sum, err := p.Run(ctx)
	p.Close()
	b.finish(i, start, sum, err)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return b.save()
}

func (b *batch) setState(i int, f func(*JobStatus)) {
	b.mu.Lock()
	f(&b.status[i])
	b.mu.Unlock()
}

// finish records the end of job i.
func (b *batch) finish(i int, start time.Time, sum *Summary, err error) {
	now := time.Now().UTC()
	b.mu.Lock()
	s := &b.status[i]
	s.Seconds = time.Since(start).Seconds()
	s.Finished = &now
	if err != nil {
		s.State, s.Error = "failed", err.Error()
		b.failed++
	} else {
		s.State, s.Summary = "done", sum
		b.done++
	}
	st, done, failed := *s, b.done, b.failed
	b.mu.Unlock()
	if b.o.Done != nil {
		b.o.Done(b.jobs[i], st, done, failed)
	}
}
