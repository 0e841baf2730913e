package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
)

// A run directory holds one form's files, stage by stage (design.md, "The run
// directory"). Each stage reads the files of the stages before it (or takes them in
// memory from the stage before it in the same process) and writes its own. When a stage
// finishes it writes a marker, .trawl/<stage>.done, holding the digest of its inputs
// and options; a later run skips the stage while that digest still matches.
// A stage killed midway leaves no marker, so the next run does it again from the start;
// the outputs of finished stages are never touched. That is what makes batch runs
// resumable after kill -9.

// stage is one step of the pipeline.
type stage struct {
	// name identifies the stage ("probe", "extract", …).
	name string
	// inputs are the files (relative to the run directory) whose content decides whether
	// the stage must run again. A missing input counts as empty.
	inputs []string
	// outputs are the files the stage writes; a stage whose outputs are missing runs
	// again.
	outputs []string
	// options is any JSON-serialisable value; a change re-runs the stage.
	options any
	// run does the work. It must write its outputs atomically (rundir.WriteFile) so that a
	// killed run leaves either the old file or the new one.
	run func(ctx context.Context) error
}

// stageDigest hashes the stage's name, options and input files.
func stageDigest(dir string, s stage) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "stage %s\n", s.name)
	opts, err := json.Marshal(s.options)
	if err != nil {
		return "", fmt.Errorf("stage %s: options: %w", s.name, err)
	}
	fmt.Fprintf(h, "options %s\n", opts)
	for _, in := range s.inputs {
		fmt.Fprintf(h, "input %s\n", in)
		f, err := os.Open(filepath.Join(dir, in))
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprint(h, "missing\n")
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, f)
		_ = f.Close()
		if err != nil {
			return "", fmt.Errorf("stage %s: read %s: %w", s.name, in, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// stageDone reports whether the stage's marker matches its current inputs.
func stageDone(dir string, s stage) (bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, rundir.MarkerFile(s.name)))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var m rundir.Marker
	if err := json.Unmarshal(data, &m); err != nil {
		return false, nil // a torn marker counts as not done
	}
	for _, out := range s.outputs {
		if _, err := os.Stat(filepath.Join(dir, out)); err != nil {
			return false, nil
		}
	}
	d, err := stageDigest(dir, s)
	if err != nil {
		return false, err
	}
	return m.Digest == d, nil
}

// runStages runs the stages in order in dir, skipping those already done with the same
// inputs (unless force), and stops at the first error. Once a stage runs, every later
// stage runs too, since its inputs may have changed. onEvent, if not nil, is told about
// each stage.
func runStages(ctx context.Context, dir string, stages []stage, force bool, log *slog.Logger, onEvent func(Event)) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Join(dir, rundir.StateDir), 0o755); err != nil {
		return err
	}
	redo := force
	for _, s := range stages {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !redo {
			done, err := stageDone(dir, s)
			if err != nil {
				return fmt.Errorf("stage %s: %w", s.name, err)
			}
			if done {
				log.Info("stage already done", "stage", s.name, "dir", dir)
				if onEvent != nil {
					onEvent(Event{Stage: s.name, Skipped: true})
				}
				continue
			}
		}
		redo = true
		marker := filepath.Join(dir, rundir.MarkerFile(s.name))
		if err := os.Remove(marker); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		start := time.Now()
		log.Info("stage start", "stage", s.name, "dir", dir)
		err := s.run(ctx)
		ev := Event{Stage: s.name, Elapsed: time.Since(start), Err: err}
		if onEvent != nil {
			onEvent(ev)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		d, err := stageDigest(dir, s)
		if err != nil {
			return err
		}
		m, _ := json.Marshal(rundir.Marker{Stage: s.name, Digest: d, Finished: time.Now().UTC(), Seconds: ev.Elapsed.Seconds()})
		if err := rundir.WriteFile(marker, append(m, '\n')); err != nil {
			return err
		}
		log.Info("stage done", "stage", s.name, "elapsed", ev.Elapsed.Round(time.Millisecond))
	}
	return nil
}
