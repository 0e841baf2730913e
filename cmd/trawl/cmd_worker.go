package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
)

const workerLong = `Take jobs of a batch from a NATS JetStream work queue and run the pipeline on them,
on any number of machines at once ('trawl batch JOBS.txt --queue nats://HOST:4222'
enqueues them).

A job is acknowledged only when its run directory is complete; while it runs, the
worker tells the queue every --ack-wait/4 that it is in progress. A worker that dies
(kill -9, a lost machine) stops telling: its job goes to another worker after
--ack-wait, which resumes the run directory where it stopped when --out is shared.
Jobs of one origin (scheme://host:port) run one at a time across all workers (the
batch's --origin-limit), and a job waits the origin's delay after the one before it.

--out is a directory (a shared filesystem such as NFS, so that a redelivered job
resumes its run directory), or nats://… to send each finished run directory to the
queue's object store, from which 'trawl batch collect' fetches them.

--browser connects to running headless Chromium instances through the DevTools
protocol (ws://HOST:9222 or http://HOST:9222; several separated by commas) instead of
starting one: a browser pool on other machines. A job whose browser is lost goes back
to the queue, and the worker connects to the next browser of the list.

The KB (--kb) is opened read-only by each worker: give every worker a copy of the
directory that 'trawl kb load' wrote.`

// workerOptions are the flags of 'trawl worker'.
type workerOptions struct {
	Queue       string
	Batch       string
	Out         string
	Work        string
	KB          string
	Browsers    string
	Chrome      string
	Concurrency int
	AckWait     time.Duration
	IdleExit    time.Duration
}

func newWorkerCommand(g *globalOptions) *cobra.Command {
	o := workerOptions{Batch: queue.DefaultOptions().Batch, AckWait: queue.DefaultOptions().AckWait}
	cmd := &cobra.Command{
		Use:   "worker --queue nats://HOST:4222 --out DIR [--kb KB] [--browser URL]",
		Short: "Run batch jobs from a NATS work queue (one of many workers)",
		Long:  workerLong,
		Example: example(
			"trawl worker --queue nats://10.0.0.5:4222 --kb /data/yago --out /mnt/shared/runs",
			"trawl worker --queue nats://10.0.0.5:4222 --out nats://10.0.0.5:4222 --browser ws://10.0.0.7:9222,ws://10.0.0.8:9222"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			gg := *g
			if gg.stderr == nil {
				gg.stderr = cmd.ErrOrStderr()
			}
			return runWorker(cmd.Context(), gg, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Queue, "queue", "", "NATS server of the queue (nats://HOST:4222; a cluster: several, comma-separated)")
	f.StringVar(&o.Batch, "batch", o.Batch, "name of the batch to work on")
	f.StringVar(&o.Out, "out", "runs", "output directory (shared), or nats://… for the queue's object store")
	f.StringVar(&o.Work, "work", "", "local directory for run directories bound for the object store (default: a temporary one)")
	f.StringVar(&o.KB, "kb", "", "reference KB: a 'trawl kb load' directory or an N-Triples file (default: the embedded demo KB)")
	f.StringVar(&o.Browsers, "browser", "", "running Chromium instances to use (ws://HOST:9222, comma-separated); default: start one")
	f.StringVar(&o.Chrome, "chrome", "", "Chromium binary when starting one (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.IntVar(&o.Concurrency, "concurrency", 1, "jobs run at the same time by this worker")
	f.DurationVar(&o.AckWait, "ack-wait", o.AckWait, "time without a heartbeat after which a job goes to another worker, for a batch that did not set it")
	f.DurationVar(&o.IdleExit, "idle-exit", 0, "exit after the queue gave no job for this long (0: serve until interrupted)")
	return cmd
}

func runWorker(ctx context.Context, g globalOptions, o workerOptions) error {
	if o.Queue == "" {
		return usageError("trawl worker: --queue nats://HOST:4222 is required")
	}
	if o.Concurrency < 1 {
		return usageError("trawl worker: --concurrency must be ≥ 1")
	}
	log := g.logger()
	qo := queue.DefaultOptions()
	qo.URL, qo.Batch, qo.AckWait, qo.Logger = o.Queue, o.Batch, o.AckWait, log
	if err := qo.Validate(); err != nil {
		return usageError("trawl worker: %v", err)
	}
	q, err := queue.Open(ctx, qo)
	if err != nil {
		return err
	}
	defer q.Close()
	base := defaultPipelineOptions()
	base.KB = o.KB
	base.Probe.ChromePath = o.Chrome
	jr, err := newJobRunner(q, base, o.Out, o.Work, splitList(o.Browsers), log)
	if err != nil {
		return err
	}
	defer jr.close()
	wo := queue.DefaultWorkOptions()
	wo.Concurrency, wo.StopWhenIdle = o.Concurrency, o.IdleExit
	if !g.Quiet {
		fmt.Fprintf(g.stderr, "trawl worker %s: batch %s on %s, output %s\n", wo.Name, o.Batch, o.Queue, o.Out)
	}
	err = q.Work(ctx, wo, jr.run)
	if errors.Is(err, context.Canceled) || (err == nil && ctx.Err() == nil) {
		return nil
	}
	return err
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// jobRunner runs queued jobs through the pipeline: the one place where the queue
// meets the pipeline.
type jobRunner struct {
	q        *queue.Queue
	base     pipelineOptions
	out      string       // the run directories' parent
	store    *queue.Queue // the object store's queue connection when results go to nats://
	ownStore bool
	browsers *browserSource
	log      *slog.Logger
}

// newJobRunner prepares the output: a directory, or (out = nats://…) a local work
// directory whose finished run directories go to the object store.
func newJobRunner(q *queue.Queue, base pipelineOptions, out, work string, browsers []string, log *slog.Logger) (*jobRunner, error) {
	for _, b := range browsers {
		if !strings.HasPrefix(b, "ws://") && !strings.HasPrefix(b, "wss://") && !strings.HasPrefix(b, "http://") {
			return nil, usageError("trawl: --browser %q: want ws://HOST:PORT (a Chromium started with --remote-debugging-port)", b)
		}
	}
	jr := &jobRunner{q: q, base: base, out: out, log: log,
		browsers: &browserSource{endpoints: browsers, opts: base.Probe, log: log}}
	if strings.HasPrefix(out, "nats://") {
		if out == q.ClientURL() {
			jr.store = q
		} else {
			qo := q.Options()
			qo.URL, qo.StoreDir, qo.Listen = out, "", ""
			s, err := queue.Open(context.Background(), qo)
			if err != nil {
				return nil, err
			}
			jr.store, jr.ownStore = s, true
		}
		if work == "" {
			d, err := os.MkdirTemp("", "trawl-worker-")
			if err != nil {
				return nil, err
			}
			work = d
		}
		jr.out = work
	}
	if err := os.MkdirAll(jr.out, 0o755); err != nil {
		return nil, err
	}
	return jr, nil
}

func (jr *jobRunner) close() {
	jr.browsers.close()
	if jr.ownStore {
		jr.store.Close()
	}
}

// jobOptions turns a queued job into pipeline options: the worker's defaults, then
// the job's settings.
func (jr *jobRunner) jobOptions(j queue.Job) (pipelineOptions, error) {
	o := jr.base
	for _, kv := range j.Settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return o, fmt.Errorf("job line %d: setting %q is not key=value", j.Line, kv)
		}
		if err := setJobOption(&o, k, v); err != nil {
			return o, fmt.Errorf("job line %d: %s: %w", j.Line, k, err)
		}
	}
	if err := o.Probe.Validate(); err != nil {
		return o, fmt.Errorf("job line %d: %w", j.Line, err)
	}
	o.URL = j.URL
	o.Dir = filepath.Join(jr.out, j.Key)
	return o, nil
}

// run is the queue.Runner of trawl: the pipeline into the job's run directory, which
// must be complete before the job is acknowledged.
func (jr *jobRunner) run(ctx context.Context, j queue.Job, stage func(string)) (any, error) {
	o, err := jr.jobOptions(j)
	if err != nil {
		return nil, err
	}
	log := jr.log.With("source", o.Dir)
	var b *probe.Browser
	if needsBrowser(o.Dir, o) {
		if b, err = jr.browsers.get(ctx); err != nil {
			return nil, fmt.Errorf("%w: %v", queue.ErrRelease, err)
		}
		o.Browser = b
	}
	o.Progress = func(ev stageEvent) {
		if ev.Err == nil && !ev.Skipped {
			stage(ev.Stage)
		}
	}
	sum, err := runPipelineJob(ctx, o, log)
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
	if err := runDirComplete(o.Dir, o); err != nil {
		return nil, err
	}
	if jr.store != nil {
		if err := jr.store.PutResult(ctx, j.Key, o.Dir); err != nil {
			return nil, fmt.Errorf("%w: %v", queue.ErrRelease, err)
		}
		if err := os.RemoveAll(o.Dir); err != nil {
			log.Warn("remove the uploaded run directory", "err", err)
		}
	}
	return sum, nil
}

// runPipelineJob runs the whole pipeline of one source: the adapter between the
// queue and the pipeline.
func runPipelineJob(ctx context.Context, o pipelineOptions, log *slog.Logger) (*pipelineSummary, error) {
	p := newPipeline(o, log)
	defer p.close()
	return p.run(ctx)
}

// runDirComplete checks that a run directory holds every file of a finished run.
func runDirComplete(dir string, o pipelineOptions) error {
	st, err := readRoundState(dir)
	if err != nil {
		return err
	}
	if st.Stopped == "" && !(o.Rounds == 0 && len(st.History) > 0) {
		return fmt.Errorf("%s: the guided rounds did not end (%s)", dir, roundsFile)
	}
	files := []string{probe.FormFile, probe.ProbesFile, records.WrapperFile, records.RecordsFile, "schema.json",
		graph.GraphFile, "alignment.tsv", "links.nt", "understanding.json", "enrichment.nt", roundsFile}
	if !o.NoReport {
		files = append(files, "report.html")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("the run directory is incomplete: %w", err)
		}
	}
	return nil
}

// browserSource hands out the worker's browser: one started here, or a connection to
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
	// The browser lives as long as the worker, not as the job that started it.
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
