package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/internal/rundir"
)

const batchLong = `Run the pipeline of 'trawl run' on many forms, several at a time, on one machine or
on many.

JOBS.txt has one job per line: a URL, then optional per-source settings as key=value
(blank lines and lines starting with # are ignored):

  http://127.0.0.1:18082/mobile  ignore-robots=true  max-probes=30
  https://example.org/search     rounds=0  delay=2s  force-form=1

Keys: max-probes, max-pages, pages-per-probe, rounds, guided-values, delay,
ignore-robots, allow-post, resubmit, no-report, http-pages, tabs, force-form, kb.
Flags set the defaults of every job.

The jobs go through a NATS JetStream work queue, one message per job. Without --queue,
trawl starts an embedded NATS server (its store in <out>/.queue) and --concurrency
workers in this process, sharing one Chromium: one machine needs nothing else. With
--listen HOST:PORT the embedded server also takes workers of other processes or
machines ('trawl worker --queue nats://HOST:PORT'). With --queue nats://HOST:4222 (a
NATS server or cluster with JetStream) the batch only enqueues its jobs and follows
them; 'trawl worker' processes on any machines run them. Jobs of one origin run one
at a time across all workers (--origin-limit), each waiting the job's delay after the
one before. 'trawl batch status' shows queued/running/done/failed with reasons;
'trawl batch collect' fetches the results that workers sent to the object store.

Each form goes to <out>/<form>/ as with 'trawl run'. The batch is resumable: kill it
at any moment (even with kill -9) and run the same command again; finished stages,
finished probes and finished sources are not redone (a job is enqueued once, by its
run directory's name), and nothing already written is lost. One failing source does
not stop the others; the batch then exits with code 3. A status table is printed at
the end, and <out>/batch.json holds the state of every job.`

// batchOptions are the flags of 'trawl batch'.
type batchOptions struct {
	Jobs        string
	Out         string
	Concurrency int
	JSON        bool
	defaults    pipeline.Options
	// settings are the job settings (key=value) the flags changed: remote workers
	// apply them to their own defaults.
	settings []string
	queueFlags
}

func newBatchCommand(g *globalOptions) *cobra.Command {
	o := batchOptions{defaults: pipeline.DefaultOptions()}
	var delay time.Duration
	cmd := &cobra.Command{
		Use:     "batch JOBS.txt [--out DIR] [--concurrency N]",
		Short:   "Run the pipeline on many forms, concurrently and resumably",
		Long:    batchLong,
		Example: example("trawl batch jobs.txt --out runs --concurrency 2", "trawl batch jobs.txt --out runs --kb /data/yago --json"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Jobs = args[0]
			o.defaults.Probe.Delay = delay
			o.settings = changedSettings(cmd)
			if o.Queue != "" && !cmd.Flags().Changed("concurrency") {
				o.Concurrency = 0 // the workers elsewhere run the jobs
			}
			return runBatch(cmd.Context(), g.forCmd(cmd), o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := o.defaults
	f.StringVar(&o.Out, "out", "runs", "output directory")
	f.IntVar(&o.Concurrency, "concurrency", 2, "sources processed at the same time by this process")
	f.StringVar(&o.defaults.KB, "kb", "", "reference KB of every job (default: the embedded demo KB)")
	f.IntVar(&o.defaults.Rounds, "rounds", d.Rounds, "most guided probing rounds per source")
	f.IntVar(&o.defaults.Probe.MaxProbes, "max-probes", d.Probe.MaxProbes, "most submissions of a source's agnostic round")
	f.IntVar(&o.defaults.Probe.Tabs, "tabs", 1, "browser tabs per source")
	f.DurationVar(&delay, "delay", d.Probe.Delay, "least time between the answer to a request and the next request to a host")
	f.BoolVar(&o.defaults.Probe.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.StringVar(&o.defaults.Probe.ChromePath, "chrome", "", "Chromium binary (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.BoolVar(&o.defaults.NoReport, "no-report", false, "do not write report.html")
	f.BoolVar(&o.defaults.HTTPPages, "http-pages", false, "fetch GET result pages over plain HTTP once the first probes show them equal to the browser's")
	f.BoolVar(&o.JSON, "json", false, "print the final status as JSON on stdout")
	o.queueFlags.register(cmd)
	cmd.AddCommand(newBatchStatusCommand(g), newBatchCollectCommand(g))
	return cmd
}

// readJobs parses a jobs file. Errors name the file and line.
func readJobs(path string, defaults pipeline.Options, out string) ([]pipeline.Job, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError("trawl batch: %v", err)
	}
	defer func() { _ = f.Close() }()
	var jobs []pipeline.Job
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		job := pipeline.Job{Line: n, Options: defaults}
		u := fields[0]
		if err := checkURL("batch", u); err != nil {
			return nil, usageError("%s:%d: %q is not an http(s) URL", path, n, u)
		}
		for _, kv := range fields[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, usageError("%s:%d: %q is not key=value", path, n, kv)
			}
			if err := job.Options.Set(k, v); err != nil {
				return nil, usageError("%s:%d: %s: %v", path, n, k, err)
			}
			job.Settings = append(job.Settings, kv)
		}
		job.Options.URL = u
		dir := filepath.Join(out, rundir.Name(u, job.Options.Probe.ForceForm))
		job.Options.Dir = dir
		if prev, dup := seen[dir]; dup {
			return nil, usageError("%s:%d: %s goes to the same directory as line %d (%s)", path, n, u, prev, dir)
		}
		seen[dir] = n
		if err := job.Options.Probe.Validate(); err != nil {
			return nil, usageError("%s:%d: %v", path, n, err)
		}
		jobs = append(jobs, job)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trawl batch: read %s: %w", path, err)
	}
	if len(jobs) == 0 {
		return nil, usageError("trawl batch: %s lists no URL", path)
	}
	return jobs, nil
}

func runBatch(ctx context.Context, g globalOptions, o batchOptions, stdout io.Writer) error {
	jobs, err := readJobs(o.Jobs, o.defaults, o.Out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	q, err := o.queueFlags.open(ctx, g, o.Out, o.Concurrency)
	if err != nil {
		return err
	}
	defer q.Close()
	var (
		mu     sync.Mutex
		latest []pipeline.JobStatus
	)
	started := time.Now()
	stop := startProgress(&g, func(now time.Time) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		return batchLine(latest, started, now)
	})
	defer stop()
	stderr := g.stderr
	if url := q.ClientURL(); o.Listen != "" && !g.Quiet {
		fmt.Fprintf(stderr, "trawl batch: the queue listens at %s: trawl worker --queue %s --batch %s --out DIR\n", url, url, o.Batch)
	}
	bo := pipeline.BatchOptions{Out: o.Out, Concurrency: o.Concurrency, Defaults: o.defaults, Settings: o.settings,
		Browsers: splitList(o.Browsers), Detach: o.Detach, Logger: g.logger()}
	if !g.Quiet {
		bo.Enqueued = func(n queue.Enqueued) {
			fmt.Fprintf(stderr, "trawl batch %s: %d jobs enqueued, %d already queued, %d already done\n", o.Batch, n.Added, n.Duplicate, n.Done)
		}
		shown := map[string]string{}
		bo.Follow = func(ss []pipeline.JobStatus) {
			mu.Lock()
			latest = ss
			mu.Unlock()
			printProgress(stderr, ss, shown)
		}
	}
	status, err := pipeline.RunBatch(ctx, q, jobs, bo)
	stop()
	if err != nil || o.Detach {
		return err
	}
	if o.JSON {
		if err := writeJSON(stdout, status); err != nil {
			return err
		}
	} else {
		printBatchTable(stdout, status)
	}
	failed, partial := 0, 0
	for _, s := range status {
		switch {
		case s.State == queue.StateFailed:
			failed++
		case s.Summary != nil && (s.Summary.Failed > 0 || s.Summary.Unreadable > 0):
			partial++
		}
	}
	if failed > 0 || partial > 0 {
		return fmt.Errorf("trawl batch: %w: %d of %d sources failed, %d finished with failed probes or unreadable pages (see %s)",
			errPartial, failed, len(jobs), partial, filepath.Join(o.Out, pipeline.BatchFile))
	}
	return nil
}

// printBatchTable writes the final status of every job.
func printBatchTable(w io.Writer, status []pipeline.JobStatus) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tSTATE\tPROBES\tRECORDS\tLINKS\tRELATIONS\tSECONDS\tDIR\tERROR")
	for _, s := range status {
		probes, rec, links, rels := "-", "-", "-", "-"
		if sum := s.Summary; sum != nil {
			probes = strconv.Itoa(sum.Probes)
			if sum.Failed > 0 {
				probes += fmt.Sprintf(" (%d failed)", sum.Failed)
			}
			rec, links, rels = strconv.Itoa(sum.Records), strconv.Itoa(sum.Links), strconv.Itoa(len(sum.Relations))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n", s.Line, s.State, probes, rec, links, rels, s.Seconds, s.Dir, s.Error)
	}
	_ = tw.Flush()
}

// batchLine is the progress line of a batch: sources ended of all, failures, the rate
// and the time left at that rate, and the stage each running source reached.
func batchLine(ss []pipeline.JobStatus, started, now time.Time) (string, bool) {
	if len(ss) == 0 {
		return "", false
	}
	ended, failed := 0, 0
	var running []string
	for _, s := range ss {
		switch s.State {
		case queue.StateDone:
			ended++
		case queue.StateFailed:
			ended++
			failed++
		case queue.StateRunning:
			stage := s.Stage
			if stage == "" {
				stage = "started"
			} else {
				stage = "after " + stage
			}
			running = append(running, fmt.Sprintf("%s (%s)", filepath.Base(s.Dir), stage))
		}
	}
	el := now.Sub(started)
	line := fmt.Sprintf("batch      %d/%d sources", ended, len(ss))
	if failed > 0 {
		line += fmt.Sprintf(" (%d failed)", failed)
	}
	if ended > 0 {
		rate := float64(ended) / el.Minutes()
		line += fmt.Sprintf(", %.1f/min", rate)
		if left := len(ss) - ended; left > 0 {
			line += ", about " + (time.Duration(float64(left) / rate * float64(time.Minute))).Round(time.Second).String() + " left"
		}
	}
	line += ", " + el.Round(time.Second).String() + " so far"
	if len(running) > 0 {
		line += "; running: " + strings.Join(running, ", ")
	}
	return line, true
}
