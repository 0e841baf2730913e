// Command nexteval scores records' record isolation on folders of list pages in the
// NEXT-EVAL layout with the benchmark's own measure, and cross-validates the learnt
// selection.
//
//	go run ./records/internal/nexteval DIR...           score every page, print per page and means
//	go run ./records/internal/nexteval -cv 5 DIR...     5-fold cross-validation: the list model
//	                                                    fitted on four folds, scored on the fifth
//	go run ./records/internal/nexteval -out FILE DIR... train the list model on every page and
//	                                                    write it (go generate ./records)
//
// Pages whose ground truth does not resolve on the page are scored and reported apart.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
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
	fs.Float64Var(&to.Lambda, "lambda", to.Lambda, "L2 penalty of the list model")
	fs.Float64Var(&to.Threshold, "threshold", to.Threshold, "probability at which the list model takes a pattern for records")
	if err := fs.Parse(args); err != nil {
		return err
	}
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
	to.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if *outFile != "" {
		return train(ctx, pages, opts, to, *outFile, dirs)
	}
	var rep *benchmark.Report
	var err error
	if *cv > 0 {
		rep, err = crossValidate(ctx, pages, *cv, opts, to)
	} else {
		rep, err = benchmark.Evaluate(ctx, pages, extractor(opts))
	}
	if err != nil {
		return err
	}
	rep.Print(out)
	return nil
}

// crossValidate collects the list examples of the scorable pages once, then for each
// fold trains the list model on the other folds' examples and extracts the fold's
// pages with it.
func crossValidate(ctx context.Context, pages []benchmark.Page, k int, opts records.Options, to records.TrainOptions) (*benchmark.Report, error) {
	ex, err := records.CollectListExamples(ctx, [][]records.TrainingPage{trainingPages(scorable(pages))}, opts)
	if err != nil {
		return nil, err
	}
	return benchmark.CrossValidate(ctx, pages, k, func(ctx context.Context, tr []benchmark.Page) (benchmark.Extractor, error) {
		use := map[string]bool{}
		for _, p := range tr {
			use[p.Name()] = true
		}
		m, err := records.TrainListModel(ctx, ex, func(name string) bool { return use[name] }, to)
		if err != nil {
			return nil, err
		}
		o := opts
		o.ListModel = m
		return extractor(o), nil
	})
}

// train fits the list model on the scorable pages and writes it to file.
func train(ctx context.Context, pages []benchmark.Page, opts records.Options, to records.TrainOptions, file string, dirs []string) error {
	tr := scorable(pages)
	var names []string
	for _, d := range dirs {
		names = append(names, filepath.Base(filepath.Clean(d)))
	}
	to.About = fmt.Sprintf("list model trained by records/internal/nexteval on %d NEXT-EVAL pages (%s), lambda %g, threshold %g",
		len(tr), strings.Join(names, ", "), to.Lambda, to.Threshold)
	ex, err := records.CollectListExamples(ctx, [][]records.TrainingPage{trainingPages(tr)}, opts)
	if err != nil {
		return err
	}
	m, err := records.TrainListModel(ctx, ex, nil, to)
	if err != nil {
		return err
	}
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

// extractor runs records.Extract over the pages together.
func extractor(opts records.Options) benchmark.Extractor {
	return func(ctx context.Context, pages []benchmark.Page) ([][][]string, error) {
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
