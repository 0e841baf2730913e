package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/queue"
	"github.com/trawl-dev/trawl/probe"
)

const batchLong = `Run the pipeline of 'trawl run' on many forms, several at a time, on one machine or
on many.

JOBS.txt has one job per line: a URL, then optional per-source settings as key=value
(blank lines and lines starting with # are ignored):

  http://127.0.0.1:18082/mobile  ignore-robots=true  max-probes=30
  https://example.org/search     rounds=0  delay=2s  force-form=1

Keys: max-probes, max-pages, pages-per-probe, rounds, guided-values, delay,
ignore-robots, allow-post, force-form, kb, resubmit, tabs, no-report, http-pages. Flags
set the defaults of every job.

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

Each source goes to <out>/<source>/ as with 'trawl run'. The batch is resumable: kill it
at any moment (even with kill -9) and run the same command again; finished stages and
finished sources are not redone (a job is enqueued once, by its run directory's name), and nothing already written is lost. One failing source
does not stop the others; the batch then exits with code 3. A status table is printed at
the end, and <out>/batch.json holds the state of every job.`

// batchOptions are the flags of 'trawl batch'.
type batchOptions struct {
	Jobs        string
	Out         string
	Concurrency int
	JSON        bool
	defaults    pipelineOptions
	// settings are the job settings (key=value) the flags changed: remote workers
	// apply them to their own defaults.
	settings []string
	queueFlags
}

func newBatchCommand(g *globalOptions) *cobra.Command {
	o := batchOptions{defaults: defaultPipelineOptions()}
	var delay time.Duration
	var httpPages bool
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
			_ = setJobOption(&o.defaults, "http-pages", strconv.FormatBool(httpPages))
			if o.Queue != "" && !cmd.Flags().Changed("concurrency") {
				o.Concurrency = 0 // the workers elsewhere run the jobs
			}
			gg := *g
			if gg.stderr == nil {
				gg.stderr = cmd.ErrOrStderr()
			}
			return runBatch(cmd.Context(), gg, o, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	d := o.defaults
	f.StringVar(&o.Out, "out", "runs", "output directory")
	f.IntVar(&o.Concurrency, "concurrency", 2, "sources processed at the same time")
	f.StringVar(&o.defaults.KB, "kb", "", "reference KB of every job (default: the embedded demo KB)")
	f.IntVar(&o.defaults.Rounds, "rounds", d.Rounds, "most guided probing rounds per source")
	f.IntVar(&o.defaults.Probe.MaxProbes, "max-probes", d.Probe.MaxProbes, "most submissions of a source's agnostic round")
	f.IntVar(&o.defaults.Probe.Tabs, "tabs", 1, "browser tabs per source")
	f.DurationVar(&delay, "delay", d.Probe.Delay, "least time between two requests to a host")
	f.BoolVar(&o.defaults.Probe.IgnoreRobots, "ignore-robots", false, "do not read robots.txt (only for your own sites)")
	f.StringVar(&o.defaults.Probe.ChromePath, "chrome", "", "Chromium binary (default: $TRAWL_CHROME, then /usr/bin/chromium)")
	f.BoolVar(&o.defaults.NoReport, "no-report", false, "do not write report.html")
	f.BoolVar(&o.JSON, "json", false, "print the final status as JSON on stdout")
	f.BoolVar(&httpPages, "http-pages", false, "fetch GET result pages over plain HTTP once the first probes show them equal to the browser's")
	o.queueFlags.register(cmd)
	cmd.AddCommand(newBatchStatusCommand(g), newBatchCollectCommand(g))
	return cmd
}

// batchJob is one line of the jobs file.
type batchJob struct {
	Line     int    `json:"line"`
	URL      string `json:"url"`
	Dir      string `json:"dir"`
	opts     pipelineOptions
	settings []string // the line's key=value settings
}

// batchStatus is the state of one job, in batch.json and the final table.
type batchStatus struct {
	Line     int    `json:"line"`
	URL      string `json:"url"`
	Dir      string `json:"dir"`
	State    string `json:"state"` // queued, running, done, failed
	Worker   string `json:"worker,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
	// Completions counts the job's successful ends (1: done exactly once).
	Completions int              `json:"completions,omitempty"`
	Stage       string           `json:"stage,omitempty"`
	Error       string           `json:"error,omitempty"`
	Seconds     float64          `json:"seconds,omitempty"`
	Summary     *pipelineSummary `json:"summary,omitempty"`
	Finished    *time.Time       `json:"finished,omitempty"`
}

// readJobs parses a jobs file. Errors name the file and line.
func readJobs(path string, defaults pipelineOptions, out string) ([]batchJob, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError("trawl batch: %v", err)
	}
	defer func() { _ = f.Close() }()
	var jobs []batchJob
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
		job := batchJob{Line: n, URL: fields[0], opts: defaults}
		if err := checkURL("batch", job.URL); err != nil {
			return nil, usageError("%s:%d: %q is not an http(s) URL", path, n, job.URL)
		}
		for _, kv := range fields[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, usageError("%s:%d: %q is not key=value", path, n, kv)
			}
			if err := setJobOption(&job.opts, k, v); err != nil {
				return nil, usageError("%s:%d: %s: %v", path, n, k, err)
			}
			job.settings = append(job.settings, kv)
		}
		job.opts.URL = job.URL
		job.Dir = filepath.Join(out, probe.Source(job.URL))
		job.opts.Dir = job.Dir
		if prev, dup := seen[job.Dir]; dup {
			return nil, usageError("%s:%d: %s goes to the same directory as line %d (%s)", path, n, job.URL, prev, job.Dir)
		}
		seen[job.Dir] = n
		if err := job.opts.Probe.Validate(); err != nil {
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

// setJobOption applies one key=value setting of a job line.
func setJobOption(o *pipelineOptions, k, v string) error {
	atoi := func(dst *int) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("want a whole number ≥ 0, got %q", v)
		}
		*dst = n
		return nil
	}
	bool_ := func(dst *bool) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", v)
		}
		*dst = b
		return nil
	}
	switch k {
	case "max-probes":
		return atoi(&o.Probe.MaxProbes)
	case "max-pages":
		return atoi(&o.Probe.MaxPages)
	case "pages-per-probe":
		return atoi(&o.Probe.MaxPagesPerProbe)
	case "rounds":
		return atoi(&o.Rounds)
	case "guided-values":
		return atoi(&o.GuidedValues)
	case "delay":
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("want a duration such as 1s, got %q", v)
		}
		o.Probe.Delay = d
	case "ignore-robots":
		return bool_(&o.Probe.IgnoreRobots)
	case "allow-post":
		return bool_(&o.Probe.AllowPOST)
	case "resubmit":
		return bool_(&o.Resubmit)
	case "no-report":
		return bool_(&o.NoReport)
	case "http-pages":
		var on bool
		if err := bool_(&on); err != nil {
			return err
		}
		o.Probe.HTTPCompare = nil
		if on {
			o.Probe.HTTPCompare = newForestComparer(nil)
		}
	case "tabs":
		if err := atoi(&o.Probe.Tabs); err != nil || o.Probe.Tabs < 1 {
			return fmt.Errorf("want a whole number ≥ 1, got %q", v)
		}
	case "force-form":
		o.Probe.ForceForm = v
	case "kb":
		o.KB = v
	default:
		return fmt.Errorf("unknown key (known: max-probes, max-pages, pages-per-probe, rounds, guided-values, delay, ignore-robots, allow-post, resubmit, force-form, kb, tabs, no-report, http-pages)")
	}
	return nil
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
	log := g.logger()
	stderr := g.stderr
	if url := q.ClientURL(); o.Listen != "" && !g.Quiet {
		fmt.Fprintf(stderr, "trawl batch: the queue listens at %s: trawl worker --queue %s --batch %s --out DIR\n", url, url, o.Batch)
	}
	qjobs := make([]queue.Job, len(jobs))
	keys := make([]string, len(jobs))
	for i, j := range jobs {
		keys[i] = filepath.Base(j.Dir)
		qjobs[i] = queue.Job{Key: keys[i], Line: j.Line, URL: j.URL, Settings: append(slices.Clone(o.settings), j.settings...), Delay: j.opts.Probe.Delay}
	}
	n, err := q.Enqueue(ctx, qjobs)
	if err != nil {
		return err
	}
	if !g.Quiet {
		fmt.Fprintf(stderr, "trawl batch %s: %d jobs enqueued, %d already queued, %d already done\n", o.Batch, n.Added, n.Duplicate, n.Done)
	}
	if o.Detach {
		return nil
	}

	// Local workers, sharing one browser.
	wctx, stopWorkers := context.WithCancel(ctx)
	defer stopWorkers()
	var (
		wg   sync.WaitGroup
		werr error
	)
	if o.Concurrency > 0 {
		base := o.defaults
		jr, err := newJobRunner(q, base, o.Out, "", splitList(o.Browsers), log)
		if err != nil {
			return err
		}
		defer jr.close()
		wo := queue.DefaultWorkOptions()
		wo.Concurrency, wo.Poll = o.Concurrency, 500*time.Millisecond
		wg.Go(func() {
			if err := q.Work(wctx, wo, jr.run); err != nil && !errors.Is(err, context.Canceled) {
				werr = err
				stopWorkers()
			}
		})
	}

	// Follow the jobs until all ended, keeping batch.json current.
	shown := map[string]string{}
	save := func(ss []queue.Status) error {
		b, err := json.MarshalIndent(batchStatuses(o.Out, ss), "", "  ")
		if err != nil {
			return err
		}
		return writeFileAtomic(filepath.Join(o.Out, "batch.json"), append(b, '\n'))
	}
	final, ferr := q.Follow(wctx, keys, func(ss []queue.Status) {
		if err := save(ss); err != nil {
			log.Warn("write batch.json", "err", err)
		}
		if !g.Quiet {
			printProgress(stderr, o.Out, ss, shown)
		}
	})
	stopWorkers()
	wg.Wait()
	if err := save(final); err != nil && ferr == nil {
		ferr = err
	}
	switch {
	case werr != nil:
		return werr
	case ctx.Err() != nil:
		return ctx.Err()
	case ferr != nil:
		return ferr
	}
	status := batchStatuses(o.Out, final)
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(status); err != nil {
			return err
		}
	} else {
		printBatchTable(stdout, status)
	}
	failed := 0
	for _, s := range status {
		if s.State == queue.StateFailed {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d sources failed (see %s)", errPartial, failed, len(jobs), filepath.Join(o.Out, "batch.json"))
	}
	return nil
}

// needsBrowser reports whether a job has stages left that drive the browser; a
// finished job is re-checked without starting Chromium.
func needsBrowser(dir string, o pipelineOptions) bool {
	st, err := readRoundState(dir)
	if err != nil || st.Stopped == "" {
		return true
	}
	_, err = os.Stat(filepath.Join(dir, "report.html"))
	return !o.NoReport && errors.Is(err, os.ErrNotExist)
}

// printBatchTable writes the final status of every job.
func printBatchTable(w io.Writer, status []batchStatus) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LINE\tSTATE\tRECORDS\tLINKS\tRELATIONS\tSECONDS\tDIR\tERROR")
	for _, s := range status {
		rec, links, rels := "-", "-", "-"
		if s.Summary != nil {
			rec, links, rels = strconv.Itoa(s.Summary.Records), strconv.Itoa(s.Summary.Links), strconv.Itoa(len(s.Summary.Relations))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n", s.Line, s.State, rec, links, rels, s.Seconds, s.Dir, s.Error)
	}
	_ = tw.Flush()
}
