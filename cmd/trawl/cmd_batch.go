package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/pipeline"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
)

const batchLong = `Run the pipeline of 'trawl run' on many forms, several at a time, in one Chromium.

JOBS.txt has one job per line: a URL, then optional per-source settings as key=value
(blank lines and lines starting with # are ignored):

  http://127.0.0.1:18082/mobile  ignore-robots=true  max-probes=30
  https://example.org/search     rounds=0  delay=2s  force-form=1

Keys: max-probes, max-pages, pages-per-probe, rounds, guided-values, delay,
ignore-robots, allow-post, force-form, kb, resubmit. Flags set the defaults of every job.

Each form goes to <out>/<form>/ as with 'trawl run'. The batch is resumable: kill it
at any moment (even with kill -9) and run the same command again; finished stages and
finished sources are not redone, and nothing already written is lost. One failing source
does not stop the others; the batch then exits with code 3. A status table is printed at
the end, and <out>/batch.json holds the state of every job.`

// batchOptions are the flags of 'trawl batch'.
type batchOptions struct {
	Jobs        string
	Out         string
	Concurrency int
	JSON        bool
	defaults    pipeline.Options
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
	return cmd
}

// batchJob is one line of the jobs file.
type batchJob struct {
	Line int    `json:"line"`
	URL  string `json:"url"`
	Dir  string `json:"dir"`
	opts pipeline.Options
}

// batchStatus is the state of one job, in batch.json and the final table.
type batchStatus struct {
	Line     int               `json:"line"`
	URL      string            `json:"url"`
	Dir      string            `json:"dir"`
	State    string            `json:"state"` // pending, running, done, failed
	Stage    string            `json:"stage,omitempty"`
	Error    string            `json:"error,omitempty"`
	Seconds  float64           `json:"seconds,omitempty"`
	Summary  *pipeline.Summary `json:"summary,omitempty"`
	Finished *time.Time        `json:"finished,omitempty"`
}

// readJobs parses a jobs file. Errors name the file and line.
func readJobs(path string, defaults pipeline.Options, out string) ([]batchJob, error) {
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
		}
		job.opts.URL = job.URL
		job.Dir = filepath.Join(out, rundir.Name(job.URL, job.opts.Probe.ForceForm))
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
func setJobOption(o *pipeline.Options, k, v string) error {
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
	case "force-form":
		o.Probe.ForceForm = v
	case "kb":
		o.KB = v
	default:
		return fmt.Errorf("unknown key (known: max-probes, max-pages, pages-per-probe, rounds, guided-values, delay, ignore-robots, allow-post, resubmit, force-form, kb)")
	}
	return nil
}

func runBatch(ctx context.Context, g globalOptions, o batchOptions, stdout io.Writer) error {
	if o.Concurrency < 1 {
		return usageError("trawl batch: --concurrency must be ≥ 1")
	}
	jobs, err := readJobs(o.Jobs, o.defaults, o.Out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	b := newBatch(g, o, jobs)
	defer b.close()
	if err := b.save(); err != nil {
		return err
	}
	if err := b.run(ctx); err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(b.status); err != nil {
			return err
		}
	} else {
		printBatchTable(stdout, b.status)
	}
	if b.failed > 0 {
		return fmt.Errorf("%w: %d of %d sources failed (see %s)", errPartial, b.failed, len(jobs), filepath.Join(o.Out, "batch.json"))
	}
	return nil
}

// batch runs the jobs of a jobs file, several at a time, in one Chromium started when
// the first job needs it, and keeps <out>/batch.json up to date.
type batch struct {
	g    globalOptions
	o    batchOptions
	jobs []batchJob
	log  *slog.Logger

	mu           sync.Mutex
	status       []batchStatus
	done, failed int

	browserOnce sync.Once
	browser     *probe.Browser
	browserErr  error
}

func newBatch(g globalOptions, o batchOptions, jobs []batchJob) *batch {
	b := &batch{g: g, o: o, jobs: jobs, log: g.logger(), status: make([]batchStatus, len(jobs))}
	for i, j := range jobs {
		b.status[i] = batchStatus{Line: j.Line, URL: j.URL, Dir: j.Dir, State: "pending"}
	}
	return b
}

// save writes batch.json.
func (b *batch) save() error {
	b.mu.Lock()
	st := slices.Clone(b.status)
	b.mu.Unlock()
	return rundir.WriteJSON(filepath.Join(b.o.Out, "batch.json"), st)
}

// theBrowser starts the batch's Chromium once.
func (b *batch) theBrowser(ctx context.Context) (*probe.Browser, error) {
	b.browserOnce.Do(func() {
		po := b.o.defaults.Probe
		po.Logger = b.log
		b.browser, b.browserErr = probe.Start(ctx, po)
	})
	return b.browser, b.browserErr
}

func (b *batch) close() {
	if b.browser != nil {
		b.browser.Close()
	}
}

// run runs every job, o.Concurrency at a time, and returns the first error that stops
// the batch (no browser, interrupted, batch.json not writable); a failed job does not.
func (b *batch) run(ctx context.Context) error {
	eg := errgroup.Group{}
	eg.SetLimit(b.o.Concurrency)
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
	b.setState(i, func(s *batchStatus) { s.State = "running" })
	_ = b.save()
	jo := j.opts
	if pipeline.NeedsBrowser(j.Dir, jo.NoReport) {
		br, err := b.theBrowser(ctx)
		if err != nil {
			return err // no browser: no job can run
		}
		jo.Browser = br
	}
	jo.Progress = func(ev pipeline.Event) {
		b.setState(i, func(s *batchStatus) { s.Stage = ev.Stage })
		if !b.g.Quiet && !ev.Skipped && ev.Err == nil {
			fmt.Fprintf(b.g.stderr, "[%s] %s done in %v\n", j.Dir, ev.Stage, ev.Elapsed.Round(time.Millisecond))
		}
	}
	p := pipeline.New(jo, b.log.With("source", j.Dir))
	sum, err := p.Run(ctx)
	p.Close()
	b.finish(i, start, sum, err)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return b.save()
}

func (b *batch) setState(i int, f func(*batchStatus)) {
	b.mu.Lock()
	f(&b.status[i])
	b.mu.Unlock()
}

// finish records the end of job i and tells the terminal.
func (b *batch) finish(i int, start time.Time, sum *pipeline.Summary, err error) {
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
	counts := fmt.Sprintf("%d done, %d failed, %d total", b.done, b.failed, len(b.jobs))
	b.mu.Unlock()
	if b.g.Quiet {
		return
	}
	if err != nil {
		fmt.Fprintf(b.g.stderr, "[%s] failed: %v (%s)\n", b.jobs[i].Dir, err, counts)
	} else {
		fmt.Fprintf(b.g.stderr, "[%s] done: %d records, %d links (%s)\n", b.jobs[i].Dir, sum.Records, sum.Links, counts)
	}
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
