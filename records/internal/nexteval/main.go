// Command nexteval scores records' record isolation on folders of list pages in the
// NEXT-EVAL layout with the benchmark's own measure, and cross-validates the learnt
// selection.
//
//	go run ./records/internal/nexteval DIR...           score every page, print per page and means
//	go run ./records/internal/nexteval -cv 5 DIR...     5-fold cross-validation
//
// Pages whose ground truth does not resolve on the page are scored and reported apart.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

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
	cv := fs.Int("cv", 0, "cross-validate with this many folds (pages assigned by a hash of their number)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("no folder given (usage: nexteval [-cv K] DIR...)")
	}
	var pages []benchmark.Page
	for _, dir := range fs.Args() {
		ps, err := benchmark.Load(dir)
		if err != nil {
			return err
		}
		pages = append(pages, ps...)
	}
	opts := records.DefaultOptions()
	opts.Regions = records.RegionsAll
	var rep *benchmark.Report
	var err error
	if *cv > 0 {
		rep, err = benchmark.CrossValidate(ctx, pages, *cv, func(context.Context, []benchmark.Page) (benchmark.Extractor, error) {
			return extractor(opts), nil
		})
	} else {
		rep, err = benchmark.Evaluate(ctx, pages, extractor(opts))
	}
	if err != nil {
		return err
	}
	rep.Print(out)
	return nil
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
