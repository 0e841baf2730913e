// Command nexteval scores records' record isolation on folders of list pages in the
// NEXT-EVAL layout with the benchmark's own measure, and cross-validates the learnt
// selection.
//
//	go run ./records/internal/nexteval DIR...           score every page, print per page and means
//	go run ./records/internal/nexteval -cv 5 DIR...     5-fold cross-validation: the list model
//	                                                    fitted on four folds, scored on the fifth
//	go run ./records/internal/nexteval -out FILE DIR... train the list model on every page and
//	                                                    write it (go generate ./records)
//	go run ./records/internal/nexteval -cv 5 -losses 25 DIR...
//	                                                    and where the loss is: the 25 worst pages'
//	                                                    loss shared among records cut wrongly,
//	                                                    lists missed, lists taken wrongly and
//	                                                    annotation the policy does not meet
//	                                                    (losses.go; -v lists them), and the
//	                                                    missed lists split by whether a
//	                                                    candidate pattern yields them and
//	                                                    how the fold's model scores it
//
// The list model's L2 penalty is chosen among -lambdas by an inner cross-validation
// (-inner folds) on the pages it is trained on, scored as the mean of the inner folds'
// pages extracted together and alone: in -cv, on the four training folds only, never
// on the fold it is scored on. -alone extracts every page alone, as a user
// with one page does, instead of a fold's pages together.
//
// Pages whose ground truth does not resolve on the page are scored and reported apart.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/trawl-dev/trawl/internal/testutil"

	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/records/internal/benchmark"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "nexteval:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("nexteval", flag.ContinueOnError)
	cv := fs.Int("cv", 0, "cross-validate with this many folds (pages assigned by a hash of their number; 5 is the headline)")
	outFile := fs.String("out", "", "train the list model on every scorable page and write it to this file (gzip-compressed JSON)")
	to := records.DefaultTrainOptions()
	opts := records.DefaultOptions()
	opts.Regions = records.RegionsAll
	lambdas := fs.String("lambdas", "1,3,10", "L2 penalties of the list model to choose among by an inner cross-validation (one value: no choice)")
	inner := fs.Int("inner", 4, "folds of the inner cross-validation that chooses the L2 penalty")
	alone := fs.Bool("alone", false, "extract every page alone (as a user with one page does)")
	predFile := fs.String("predictions", "", "write the scored predictions (page name to records, each a list of XPaths) to this JSON file")
	verbose := fs.Bool("v", false, "with -losses, list the predicted records of kind a that match no true record exactly and the lists of kinds b and c")
	losses := fs.Int("losses", 0, "after scoring, classify the loss of this many worst pages in records (cut, missed, wrong, annotation) and total it over all pages")
	fs.Float64Var(&to.Threshold, "threshold", to.Threshold, "probability at which the list model takes a pattern for records")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var grid []float64
	for _, f := range strings.Split(*lambdas, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v <= 0 {
			return fmt.Errorf("-lambdas: %q is not a positive number", f)
		}
		grid = append(grid, v)
	}
	if len(grid) > 1 && *inner < 2 {
		return fmt.Errorf("-inner: the inner cross-validation needs at least 2 folds, got %d", *inner)
	}
	ch := chooser{grid: grid, inner: *inner, opts: opts, to: to}
	dirs := fs.Args()
	if len(dirs) == 0 && *outFile != "" {
		// go generate: the shared NEXT-EVAL sample and training set
		shared := testutil.SharedDir()
		if shared == "" {
			return fmt.Errorf("no shared data found: set TRAWL_SHARED or give the folders")
		}
		dirs = []string{filepath.Join(shared, "data", "next-eval-sample"), filepath.Join(shared, "data", "next-eval-train")}
	}
	if len(dirs) == 0 {
		return fmt.Errorf("no folder given (usage: nexteval [-cv K] [-out FILE] DIR...)")
	}
	var pages []benchmark.Page
	for _, dir := range dirs {
		ps, err := benchmark.Load(dir)
		if err != nil {
			return err
		}
		pages = append(pages, ps...)
	}
	ch.log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if *outFile != "" {
		return ch.train(ctx, pages, *outFile, dirs)
	}
	var rep *benchmark.Report
	var err error
	if *losses > 0 || *predFile != "" {
		ch.pred = map[string][][]string{}
	}
	if *cv > 0 {
		rep, err = ch.crossValidate(ctx, pages, *cv, *alone)
	} else {
		rep, err = benchmark.Evaluate(ctx, pages, ch.keep(extractor(opts, *alone)))
	}
	if err != nil {
		return err
	}
	rep.Print(out)
	if *predFile != "" {
		b, err := json.MarshalIndent(ch.pred, "", " ")
		if err != nil {
			return err
		}
		if err := renameio.WriteFile(*predFile, b, 0o644); err != nil {
			return err
		}
	}
	if *losses > 0 {
		folds := map[string]int{}
		for _, r := range rep.Rows {
			folds[r.Page] = r.Fold
		}
		var all []pageLoss
		for i := range pages {
			p := &pages[i]
			if !p.Scorable() {
				continue
			}
			var cover []float64
			if m := ch.models[p.Name()]; m != nil {
				cover = ch.ex.TruthCover(p.Name(), m)
			}
			l, err := analyseLoss(p, folds[p.Name()], ch.pred[p.Name()], cover, to.Threshold)
			if err != nil {
				return err
			}
			all = append(all, l)
		}
		printLosses(out, all, *losses, *verbose)
	}
	return nil
}

// keep returns ex, keeping its predictions in c.pred when the loss analysis asks for
// them.
func (c *chooser) keep(ex benchmark.Extractor) benchmark.Extractor {
	if c.pred == nil {
		return ex
	}
	return func(ctx context.Context, pages []benchmark.Page) ([][][]string, error) {
		pred, err := ex(ctx, pages)
		if err == nil {
			for i := range pages {
				c.pred[pages[i].Name()] = pred[i]
			}
		}
		return pred, err
	}
}

// chooser trains list models, choosing the L2 penalty among grid by an inner
// cross-validation on the training pages.
type chooser struct {
	grid  []float64
	inner int
	opts  records.Options
	to    records.TrainOptions
	log   *slog.Logger
	// pred keeps the scored predictions by page name for the loss analysis (nil: not
	// kept).
	pred map[string][][]string
	// ex and models keep, for the loss analysis, the list examples of the pages and the
	// model each page was scored with in the cross-validation.
	ex     *records.ListExamples
	models map[string]*records.ListModel
}

// fit trains the list model on the examples of pages tr, with the penalty of grid
// that scores best in an inner cross-validation over tr. The model serves a user with
// many pages and one with a single page, so the inner score is the mean of the two
// ways of extracting an inner fold: its pages together, and every page alone.
func (c *chooser) fit(ctx context.Context, ex *records.ListExamples, tr []benchmark.Page) (*records.ListModel, error) {
	to := c.to
	to.Lambda = c.grid[0]
	if len(c.grid) > 1 {
		best := -1.0
		for _, l := range c.grid {
			o := c.to
			o.Lambda = l
			f := 0.0
			for _, alone := range []bool{false, true} {
				rep, err := benchmark.CrossValidate(ctx, scorable(tr), c.inner, c.trainer(ex, o, alone))
				if err != nil {
					return nil, err
				}
				f += rep.Mean().F / 2
				c.log.Info("inner cross-validation", "lambda", l, "alone", alone, "f1", rep.Mean().F)
			}
			if f > best {
				best, to.Lambda = f, l
			}
		}
		c.log.Info("lambda chosen by inner cross-validation", "pages", len(tr), "lambda", to.Lambda, "f1", best)
	}
	use := map[string]bool{}
	for _, p := range tr {
		use[p.Name()] = true
	}
	return records.TrainListModel(ctx, ex, func(name string) bool { return use[name] }, to)
}

// trainer returns the benchmark trainer that fits the list model with options o on
// the training pages' examples.
func (c *chooser) trainer(ex *records.ListExamples, o records.TrainOptions, alone bool) benchmark.Trainer {
	return func(ctx context.Context, tr []benchmark.Page) (benchmark.Extractor, error) {
		use := map[string]bool{}
		for _, p := range tr {
			use[p.Name()] = true
		}
		m, err := records.TrainListModel(ctx, ex, func(name string) bool { return use[name] }, o)
		if err != nil {
			return nil, err
		}
		opts := c.opts
		opts.ListModel = m
		return extractor(opts, alone), nil
	}
}

// crossValidate collects the list examples of the scorable pages once, then for each
// fold fits the list model on the other folds (its penalty chosen on them alone) and
// extracts the fold's pages with it.
func (c *chooser) crossValidate(ctx context.Context, pages []benchmark.Page, k int, alone bool) (*benchmark.Report, error) {
	ex, err := records.CollectListExamples(ctx, [][]records.TrainingPage{trainingPages(scorable(pages))}, c.opts)
	if err != nil {
		return nil, err
	}
	c.ex, c.models = ex, map[string]*records.ListModel{}
	return benchmark.CrossValidate(ctx, pages, k, func(ctx context.Context, tr []benchmark.Page) (benchmark.Extractor, error) {
		m, err := c.fit(ctx, ex, tr)
		if err != nil {
			return nil, err
		}
		in := map[string]bool{}
		for _, p := range tr {
			in[p.Name()] = true
		}
		for _, p := range pages {
			if !in[p.Name()] {
				c.models[p.Name()] = m
			}
		}
		opts := c.opts
		opts.ListModel = m
		return c.keep(extractor(opts, alone)), nil
	})
}

// train fits the list model on the scorable pages and writes it to file.
func (c *chooser) train(ctx context.Context, pages []benchmark.Page, file string, dirs []string) error {
	tr := scorable(pages)
	ex, err := records.CollectListExamples(ctx, [][]records.TrainingPage{trainingPages(tr)}, c.opts)
	if err != nil {
		return err
	}
	m, err := c.fit(ctx, ex, tr)
	if err != nil {
		return err
	}
	var names []string
	for _, d := range dirs {
		names = append(names, filepath.Base(filepath.Clean(d)))
	}
	m.About = fmt.Sprintf("list model trained by records/internal/nexteval on %d NEXT-EVAL pages (%s), lambda %g chosen by %d-fold cross-validation among %v, threshold %g",
		len(tr), strings.Join(names, ", "), m.Lambda, c.inner, c.grid, m.Threshold)
	var b bytes.Buffer
	if err := records.WriteListModel(&b, m); err != nil {
		return err
	}
	return renameio.WriteFile(file, b.Bytes(), 0o644)
}

// scorable returns the pages whose truth resolves.
func scorable(pages []benchmark.Page) []benchmark.Page {
	var out []benchmark.Page
	for _, p := range pages {
		if p.Scorable() {
			out = append(out, p)
		}
	}
	return out
}

// trainingPages turns benchmark pages into training pages.
func trainingPages(pages []benchmark.Page) []records.TrainingPage {
	out := make([]records.TrainingPage, len(pages))
	for i, p := range pages {
		out[i] = records.TrainingPage{Page: records.Page{Name: p.Name(), HTML: p.HTML}, Truth: p.Truth}
	}
	return out
}

// extractor runs records.Extract over the pages together, or over every page alone.
func extractor(opts records.Options, alone bool) benchmark.Extractor {
	return func(ctx context.Context, pages []benchmark.Page) ([][][]string, error) {
		if alone {
			var out [][][]string
			for i := range pages {
				r, err := extractor(opts, false)(ctx, pages[i:i+1])
				if err != nil {
					return nil, err
				}
				out = append(out, r...)
			}
			return out, nil
		}
		in := make([]records.Page, len(pages))
		for i, p := range pages {
			in[i] = records.Page{Name: p.Name(), HTML: p.HTML}
		}
		_, recs, err := records.Extract(ctx, in, opts)
		if err != nil {
			return nil, err
		}
		names, xpaths := make([]string, len(recs)), make([][]string, len(recs))
		for k, r := range recs {
			names[k], xpaths[k] = r.Page, append([]string{r.XPath}, r.Extra...)
		}
		return benchmark.Group(pages, names, xpaths), nil
	}
}
