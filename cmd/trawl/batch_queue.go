package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// queueFlags are the work-queue flags of 'trawl batch'.
type queueFlags struct {
	Queue       string
	Listen      string
	Batch       string
	AckWait     time.Duration
	OriginLimit int
	Browsers    string
	Detach      bool
}

func (qf *queueFlags) register(cmd *cobra.Command) {
	d := queue.DefaultOptions()
	f := cmd.Flags()
	f.StringVar(&qf.Queue, "queue", "", "NATS server with JetStream (nats://HOST:4222): enqueue there for 'trawl worker' processes (default: an embedded server)")
	f.StringVar(&qf.Listen, "listen", "", "let the embedded server take workers of other processes at HOST:PORT")
	f.StringVar(&qf.Batch, "batch", d.Batch, "name of the batch on the queue")
	f.DurationVar(&qf.AckWait, "ack-wait", d.AckWait, "time without a heartbeat after which a job goes to another worker")
	f.IntVar(&qf.OriginLimit, "origin-limit", d.OriginLimit, "jobs of one origin running at the same time across all workers")
	f.StringVar(&qf.Browsers, "browser", "", "running Chromium instances for this process's workers (ws://HOST:9222, comma-separated)")
	f.BoolVar(&qf.Detach, "detach", false, "enqueue and return without following the jobs")
}

// open connects to --queue or starts the embedded server with its store in out.
func (qf *queueFlags) open(ctx context.Context, g globalOptions, out string, concurrency int) (*queue.Queue, error) {
	qo := queue.DefaultOptions()
	qo.URL, qo.Listen, qo.Batch, qo.AckWait, qo.OriginLimit, qo.Logger = qf.Queue, qf.Listen, qf.Batch, qf.AckWait, qf.OriginLimit, g.logger()
	qo.Configure = true
	if qf.Queue == "" {
		qo.StoreDir = filepath.Join(out, ".queue")
	}
	if err := qo.Validate(); err != nil {
		return nil, usageError("trawl batch: %v", err)
	}
	if concurrency < 0 {
		return nil, usageError("trawl batch: --concurrency must be ≥ 0")
	}
	if qf.Queue == "" && qf.Listen == "" && concurrency == 0 && !qf.Detach {
		return nil, usageError("trawl batch: --concurrency 0 without --queue or --listen: no worker could run the jobs")
	}
	return queue.Open(ctx, qo)
}

// changedSettings returns the job settings that flags of 'trawl batch' set, as
// key=value, for workers that start from their own defaults.
func changedSettings(cmd *cobra.Command) []string {
	var out []string
	for _, name := range []string{"max-probes", "rounds", "tabs", "delay", "ignore-robots", "no-report", "http-pages"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			out = append(out, name+"="+f.Value.String())
		}
	}
	return out
}

// printProgress prints one line per job whose state changed since the last call.
func printProgress(w io.Writer, ss []pipeline.JobStatus, shown map[string]string) {
	done, failed := 0, 0
	for _, s := range ss {
		switch s.State {
		case queue.StateDone:
			done++
		case queue.StateFailed:
			failed++
		}
	}
	for _, s := range ss {
		key := s.State + "/" + s.Worker + "/" + fmt.Sprint(s.Attempts)
		if shown[s.Dir] == key {
			continue
		}
		shown[s.Dir] = key
		dir := s.Dir
		switch s.State {
		case queue.StateRunning:
			fmt.Fprintf(w, "[%s] running on %s (attempt %d)\n", dir, s.Worker, s.Attempts)
		case queue.StateDone:
			var sum pipeline.Summary
			if s.Summary != nil {
				sum = *s.Summary
			}
			fmt.Fprintf(w, "[%s] done: %d records, %d links (%d done, %d failed, %d total)\n", dir, sum.Records, sum.Links, done, failed, len(ss))
		case queue.StateFailed:
			fmt.Fprintf(w, "[%s] failed: %s (%d done, %d failed, %d total)\n", dir, s.Error, done, failed, len(ss))
		case queue.StateQueued:
			if s.Error != "" {
				fmt.Fprintf(w, "[%s] queued again: %s\n", dir, s.Error)
			}
		}
	}
}

// batchQueueFlags are the flags of 'trawl batch status' and 'trawl batch collect'.
type batchQueueFlags struct {
	Queue string
	Batch string
	Out   string
	JSON  bool
}

func (f *batchQueueFlags) openQueue(ctx context.Context, g globalOptions, cmdName string) (*queue.Queue, error) {
	qo := queue.DefaultOptions()
	qo.URL, qo.Batch, qo.Logger = f.Queue, f.Batch, g.logger()
	if err := qo.Validate(); err != nil {
		return nil, usageError("trawl batch %s: %v", cmdName, err)
	}
	return queue.Open(ctx, qo)
}

func newBatchStatusCommand(g *globalOptions) *cobra.Command {
	o := batchQueueFlags{Batch: queue.DefaultOptions().Batch}
	cmd := &cobra.Command{
		Use:   "status [--queue nats://HOST:4222 | --out DIR]",
		Short: "Show the state of every job of a batch: queued, running, done or failed (with the reason)",
		Long: `Show the state of every job of a batch. With --queue, from the queue's status bucket
(while workers run); without, from <out>/batch.json, which 'trawl batch' keeps current.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			gg := g.forCmd(cmd)
			var rows []pipeline.JobStatus
			if o.Queue == "" {
				if err := rundir.ReadJSON(filepath.Join(o.Out, pipeline.BatchFile), &rows); err != nil {
					return fmt.Errorf("trawl batch status: %w (give --queue for a batch that runs on a NATS server)", err)
				}
			} else {
				q, err := o.openQueue(cmd.Context(), gg, "status")
				if err != nil {
					return err
				}
				defer q.Close()
				ss, err := q.Statuses(cmd.Context())
				if err != nil {
					return err
				}
				rows = pipeline.Statuses(o.Out, ss)
			}
			if o.JSON {
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			printBatchTable(cmd.OutOrStdout(), rows)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Queue, "queue", "", "NATS server of the batch (nats://HOST:4222)")
	f.StringVar(&o.Batch, "batch", o.Batch, "name of the batch")
	f.StringVar(&o.Out, "out", "runs", "output directory of the batch")
	f.BoolVar(&o.JSON, "json", false, "print the statuses as JSON")
	return cmd
}

func newBatchCollectCommand(g *globalOptions) *cobra.Command {
	o := batchQueueFlags{Batch: queue.DefaultOptions().Batch}
	cmd := &cobra.Command{
		Use:   "collect --queue nats://HOST:4222 --out DIR",
		Short: "Fetch the run directories that workers sent to the queue's object store",
		Long: `Fetch the run directories that 'trawl worker --out nats://…' sent to the object store
of the queue's server into <out>/<source>/, each replaced whole.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Queue == "" {
				return usageError("trawl batch collect: --queue nats://HOST:4222 is required")
			}
			q, err := o.openQueue(cmd.Context(), g.forCmd(cmd), "collect")
			if err != nil {
				return err
			}
			defer q.Close()
			keys, err := q.Collect(cmd.Context(), o.Out)
			for _, k := range keys {
				fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(o.Out, k))
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Queue, "queue", "", "NATS server of the batch (nats://HOST:4222)")
	f.StringVar(&o.Batch, "batch", o.Batch, "name of the batch")
	f.StringVar(&o.Out, "out", "runs", "directory to write the run directories into")
	return cmd
}
