package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
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
			return runWorker(cmd.Context(), g.forCmd(cmd), o)
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
	base := pipeline.DefaultOptions()
	base.KB = o.KB
	base.Probe.ChromePath = o.Chrome
	r, err := pipeline.NewRunner(q, pipeline.RunnerOptions{Base: base, Out: o.Out, Work: o.Work, Browsers: splitList(o.Browsers), Logger: log})
	if err != nil {
		return err
	}
	defer r.Close()
	wo := queue.DefaultWorkOptions()
	wo.Concurrency, wo.StopWhenIdle = o.Concurrency, o.IdleExit
	if !g.Quiet {
		fmt.Fprintf(g.stderr, "trawl worker %s: batch %s on %s, output %s\n", wo.Name, o.Batch, o.Queue, o.Out)
	}
	err = q.Work(ctx, wo, r.Run)
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
