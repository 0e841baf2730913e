package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

// Runner runs the jobs of a work queue through the pipeline (the queue.Runner of
// 'trawl batch' and 'trawl worker'): the one place where the queue meets the pipeline.
type Runner struct {
	base     Options
	out      string       // the run directories' parent
	store    *queue.Queue // the object store's queue connection when results go to nats://
	ownStore bool
	browsers *browserSource
	log      *slog.Logger
}

// RunnerOptions configure NewRunner.
type RunnerOptions struct {
	// Base are the options of every job before its settings.
	Base Options
	// Out is the directory of the run directories, or nats://… to send each finished
	// run directory to the queue's object store (Work then holds them meanwhile).
	Out  string
	Work string
	// Browsers are running Chromium instances (ws://HOST:9222); none: start one.
	Browsers []string
	Logger   *slog.Logger
}

// NewRunner prepares the output of the jobs that q hands out: a directory, or (Out =
// nats://…) a local work directory whose finished run directories go to the object
// store.
func NewRunner(q *queue.Queue, o RunnerOptions) (*Runner, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	for _, b := range o.Browsers {
		if !strings.HasPrefix(b, "ws://") && !strings.HasPrefix(b, "wss://") && !strings.HasPrefix(b, "http://") {
			return nil, fmt.Errorf("%w: browser %q: want ws://HOST:PORT (a Chromium started with --remote-debugging-port)", ErrBadOptions, b)
		}
	}
	r := &Runner{base: o.Base, out: o.Out, log: o.Logger,
		browsers: &browserSource{endpoints: o.Browsers, opts: o.Base.Probe, log: o.Logger}}
	if strings.HasPrefix(o.Out, "nats://") {
		if o.Out == q.ClientURL() {
			r.store = q
		} else {
			qo := q.Options()
			qo.URL, qo.StoreDir, qo.Listen = o.Out, "", ""
			s, err := queue.Open(context.Background(), qo)
			if err != nil {
				return nil, err
			}
			r.store, r.ownStore = s, true
		}
		work := o.Work
		if work == "" {
			d, err := os.MkdirTemp("", "trawl-worker-")
			if err != nil {
				return nil, err
			}
			work = d
		}
		r.out = work
	}
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return nil, err
	}
	return r, nil
}

// Close closes the runner's browser and its object-store connection.
func (r *Runner) Close() {
	r.browsers.close()
	if r.ownStore {
		r.store.Close()
	}
}

// jobOptions turns a queued job into pipeline options: the runner's defaults, then the
// job's settings.
func (r *Runner) jobOptions(j queue.Job) (Options, error) {
	o := r.base
	for _, kv := range j.Settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("job line %d: setting %q is not key=value", j.Line, kv)
		}
		if err := o.Set(k, v); err != nil {
			return o, fmt.Errorf("job line %d: %s: %w", j.Line, k, err)
		}
	}
	if err := o.Probe.Validate(); err != nil {
		return o, fmt.Errorf("job line %d: %w", j.Line, err)
	}
	o.URL = j.URL
	o.Dir = filepath.Join(r.out, j.Key)
	return o, nil
}

// Run runs one job: the pipeline into the job's run directory, which must be complete
// before the job is acknowledged. It is a queue.Runner.
func (r *Runner) Run(ctx context.Context, j queue.Job, stage func(string)) (any, error) {
	o, err := r.jobOptions(j)
	if err != nil {
		return nil, err
	}
	log := r.log.With("source", o.Dir)
	var b *probe.Browser
	if NeedsBrowser(o.Dir, o.NoReport) {
		if b, err = r.browsers.get(ctx); err != nil {
			return nil, fmt.Errorf("%w: %v", queue.ErrRelease, err)
		}
		o.Browser = b
	}
	o.Progress = func(ev Event) {
		if ev.Err == nil && !ev.Skipped {
			stage(ev.Stage)
		}
	}
	p := New(o, log)
	sum, err := p.Run(ctx)
	p.Close()
	if err != nil {
		if b != nil && b.Lost() {
			// Nothing half-written stays: stages write their files atomically and an
			// interrupted stage is redone by the next attempt.
			return nil, fmt.Errorf("%w: the browser was lost during the job: %v", queue.ErrRelease, err)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %v", queue.ErrRelease, err)
		}
		return nil, err
	}
	if err := RunDirComplete(o.Dir, o); err != nil {
		return nil, err
	}
	if r.store != nil {
		if err := r.store.PutResult(ctx, j.Key, o.Dir); err != nil {
			return nil, fmt.Errorf("%w: %v", queue.ErrRelease, err)
		}
		if err := os.RemoveAll(o.Dir); err != nil {
			log.Warn("remove the uploaded run directory", "err", err)
		}
	}
	return sum, nil
}

// RunDirComplete checks that a run directory holds every file of a finished run.
func RunDirComplete(dir string, o Options) error {
	st, err := readRoundState(dir)
	if err != nil {
		return err
	}
	if st.Stopped == "" && !(o.Rounds == 0 && len(st.History) > 0) {
		return fmt.Errorf("%s: the guided rounds did not end (%s)", dir, rundir.RoundsFile)
	}
	files := []string{rundir.FormFile, rundir.ProbesFile, rundir.WrapperFile, rundir.RecordsFile, rundir.SchemaFile,
		rundir.GraphFile, rundir.AlignmentTSV, rundir.LinksFile, rundir.UnderstandingFile, rundir.EnrichmentFile, rundir.RoundsFile}
	if !o.NoReport {
		files = append(files, rundir.ReportFile)
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("the run directory is incomplete: %w", err)
		}
	}
	return nil
}

// browserSource hands out the runner's browser: one started here, or a connection to
// one of the remote endpoints, replaced when it is lost.
type browserSource struct {
	endpoints []string
	opts      probe.Options
	log       *slog.Logger

	mu   sync.Mutex
	cur  *probe.Browser
	next int
}

// get returns a live browser, starting or connecting one when there is none.
func (s *browserSource) get(ctx context.Context) (*probe.Browser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil && !s.cur.Lost() {
		return s.cur, nil
	}
	if s.cur != nil {
		s.log.Warn("the browser was lost; connecting again")
		s.cur.Close()
		s.cur = nil
	}
	po := s.opts
	po.Logger = s.log
	// The browser lives as long as the runner, not as the job that started it.
	bctx := context.WithoutCancel(ctx)
	if len(s.endpoints) == 0 {
		b, err := probe.Start(bctx, po)
		if err != nil {
			return nil, err
		}
		s.cur = b
		return b, nil
	}
	var errs []error
	for range s.endpoints {
		ep := s.endpoints[s.next%len(s.endpoints)]
		s.next++
		b, err := probe.Connect(bctx, ep, po)
		if err == nil {
			s.log.Info("connected to a browser", "endpoint", ep)
			s.cur = b
			return b, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("no browser of --browser answers: %w", errors.Join(errs...))
}

func (s *browserSource) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.Close()
		s.cur = nil
	}
}
