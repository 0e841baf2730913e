// Command formtrain trains probe's form and field classifier on the Formasaurus pages of
// the shared data and writes the model file that probe embeds (go generate ./probe), or
// evaluates the training by grouped cross-validation.
//
//	go run ./probe/internal/formtrain -out probe/model_forms.json.gz
//	go run ./probe/internal/formtrain -cv 20
package main

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/probe/internal/formasaurus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "formtrain:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("formtrain", flag.ContinueOnError)
	def := probe.DefaultTrainOptions()
	data := fs.String("data", "", "Formasaurus folder (default: <shared>/data/formasaurus, see TRAWL_SHARED)")
	out := fs.String("out", "", "write the model trained on all pages to this file (gzip-compressed JSON)")
	cv := fs.Int("cv", 0, "run a grouped cross-validation with this many folds and print the scores")
	showErrors := fs.Bool("errors", false, "with -cv, list the search forms and keyword boxes it got wrong")
	fs.Float64Var(&def.FormLambda, "form-lambda", def.FormLambda, "L2 penalty of the form model")
	fs.Float64Var(&def.FieldLambda, "field-lambda", def.FieldLambda, "L2 penalty of the field model")
	fs.Float64Var(&def.DensePenalty, "dense-penalty", def.DensePenalty, "penalty scale of the form model's dense features")
	fs.IntVar(&def.MinCount, "min-count", def.MinCount, "drop features seen in fewer examples")
	fs.Float64Var(&def.KeywordMin, "keyword-min", def.KeywordMin, "keyword probability that makes the best text box of a search form its keyword box")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" && *cv == 0 {
		return fmt.Errorf("nothing to do: give -out FILE and/or -cv K")
	}
	dir := *data
	if dir == "" {
		shared := testutil.SharedDir()
		if shared == "" {
			return fmt.Errorf("no shared data found: set TRAWL_SHARED or pass -data")
		}
		dir = filepath.Join(shared, "data", "formasaurus")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	t0 := time.Now()
	pages, err := formasaurus.Load(ctx, dir)
	if err != nil {
		return err
	}
	exs := formasaurus.Examples(pages)
	log.Info("corpus loaded", "pages", len(pages), "examples", len(exs), "elapsed", time.Since(t0).Round(time.Millisecond))
	if *cv > 0 {
		t1 := time.Now()
		pred, err := formasaurus.CrossValidate(ctx, exs, *cv, def)
		if err != nil {
			return err
		}
		fmt.Printf("grouped %d-fold cross-validation (folds by registered domain), %d pages, options %+v\n\n",
			*cv, len(pages), struct {
				FormLambda, FieldLambda, DensePenalty float64
				MinCount                              int
				KeywordMin                            float64
			}{def.FormLambda, def.FieldLambda, def.DensePenalty, def.MinCount, def.KeywordMin})
		formasaurus.Score(exs, pred).Write(os.Stdout)
		if *showErrors {
			formasaurus.WriteErrors(os.Stdout, pages, exs, pred)
		}
		log.Info("cross-validation done", "elapsed", time.Since(t1).Round(time.Millisecond))
	}
	if *out != "" {
		def.Logger = log
		def.About = fmt.Sprintf("Formasaurus (TeamHG-Memex/Formasaurus d7d9162, MIT), shared 75%% split: %d pages, %d annotated forms; trawl probe/internal/formtrain", len(pages), len(exs))
		c, err := probe.TrainClassifier(ctx, formasaurus.Training(exs), def)
		if err != nil {
			return err
		}
		f, err := renameio.NewPendingFile(*out, renameio.WithPermissions(0o644))
		if err != nil {
			return err
		}
		defer func() { _ = f.Cleanup() }()
		zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
		if err != nil {
			return err
		}
		if err := c.WriteJSON(zw); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		if err := f.CloseAtomicallyReplace(); err != nil {
			return err
		}
		log.Info("model written", "file", *out)
	}
	return nil
}
