package ontology

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// A KB directory holds:
//
//	TRAWL_KB.json   the marker: layout version and state ("loading" or "complete")
//	TRAWL_KB.lock   held by the load that writes into the directory
//	badger/         the Badger database
//	.load-tmp/      sort runs while a load runs
//
// The marker lets Open refuse a directory that is not a KB, or whose load did not
// finish, with a clear message before touching Badger; the authoritative "complete"
// flag is also inside the database, written last.
const (
	markerFile = "TRAWL_KB.json"
	lockFile   = "TRAWL_KB.lock"
	badgerDir  = "badger"
	tmpDir     = ".load-tmp"
)

type marker struct {
	Layout  int       `json:"layout"`
	State   string    `json:"state"`
	Updated time.Time `json:"updated"`
	Sources []string  `json:"sources,omitempty"`
}

func readMarker(dir string) (*marker, error) {
	data, err := os.ReadFile(filepath.Join(dir, markerFile))
	if err != nil {
		return nil, err
	}
	var m marker
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: bad %s: %v", ErrNotKB, dir, markerFile, err)
	}
	return &m, nil
}

func writeMarker(dir string, m marker) error {
	m.Updated = time.Now().UTC()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, markerFile+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, markerFile))
}

// Load loads RDF dumps into a new KB in dir (created if missing). The directory must be
// empty, hold an unfinished load (which is discarded), or, with opts.Replace, a
// complete KB. A load that is interrupted leaves a directory that Open refuses with
// ErrIncomplete until a new load finishes.
func Load(ctx context.Context, dir string, sources []Source, opts LoadOptions) (*LoadReport, error) {
	start := time.Now()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(sources) == 0 {
		return nil, errors.New("ontology: nothing to load")
	}
	// Refuse a foreign directory before leaving anything in it.
	if err := checkForeign(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ontology: %w", err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := prepareDir(dir, opts.Replace); err != nil {
		return nil, err
	}
	var names []string
	for _, s := range sources {
		names = append(names, s.Name)
	}
	if err := writeMarker(dir, marker{Layout: LayoutVersion, State: "loading", Sources: names}); err != nil {
		return nil, fmt.Errorf("ontology: write %s: %w", markerFile, err)
	}
	tmp := opts.TempDir
	if tmp == "" {
		tmp = filepath.Join(dir, tmpDir)
	}
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()

	// From here the budget bounds the process's memory (memlimit.go).
	defer startBudget(opts.SortMemoryMB << 20)()
	log := opts.logger()
	bdir := filepath.Join(dir, badgerDir)
	bopts := loadBadgerOptions(bdir, log, loadTableSize(opts.SortMemoryMB<<20))
	db, err := badger.Open(bopts)
	if err != nil {
		// Our own unfinished load may have left a database Badger cannot open.
		log.Warn("discarding the database of an unfinished load", "dir", bdir, "err", err)
		if rerr := os.RemoveAll(bdir); rerr != nil {
			return nil, fmt.Errorf("ontology: open %s: %w", bdir, err)
		}
		if db, err = badger.Open(bopts); err != nil {
			return nil, fmt.Errorf("ontology: open %s: %w", bdir, err)
		}
	}
	l := newLoader(ctx, opts, tmp, true)
	rep, err := l.run(sources, db)
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("ontology: close %s: %w", bdir, cerr)
	}
	if err != nil {
		return rep, err
	}
	if err := writeMarker(dir, marker{Layout: LayoutVersion, State: "complete", Sources: names}); err != nil {
		return rep, fmt.Errorf("ontology: write %s: %w", markerFile, err)
	}
	rep.Total = time.Since(start)
	return rep, nil
}

// checkForeign refuses a directory that holds files but no KB marker.
func checkForeign(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 || len(ents) == 1 && ents[0].Name() == lockFile {
		return nil // missing (created later) or empty
	}
	if _, err := os.Stat(filepath.Join(dir, markerFile)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s is not empty and has no %s; refusing to write into it", ErrNotKB, dir, markerFile)
	}
	return nil
}

// prepareDir checks that dir may receive a load.
func prepareDir(dir string, replace bool) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return fmt.Errorf("ontology: %w", err)
	case len(ents) == 0 || len(ents) == 1 && ents[0].Name() == lockFile:
		return nil
	}
	m, err := readMarker(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s is not empty and has no %s; refusing to write into it", ErrNotKB, dir, markerFile)
	}
	if err != nil {
		return err
	}
	if m.State == "complete" && !replace {
		return fmt.Errorf("%w: %s (pass --replace to load it again)", ErrExists, dir)
	}
	return removeAllIn(dir, markerFile, lockFile)
}

// run parses the sources and writes the KB into db.
func (l *loader) run(sources []Source, db *badger.DB) (*LoadReport, error) {
	start := time.Now()
	defer l.release()
	if err := l.parse(sources); err != nil {
		return l.finalReport(), err
	}
	rep, err := l.index(db)
	rep.Total = time.Since(start)
	return rep, err
}

// parse is the first stage of a load: parsing into sorted runs.
func (l *loader) parse(sources []Source) error {
	start := time.Now()
	if err := l.parseAll(sources); err != nil {
		return err
	}
	l.report.ParseTime = time.Since(start)
	l.report.SpillRuns = l.triples.nrun + l.terms.nrun + l.lits.nrun + l.bands.nrun + l.dates.nrun
	return nil
}

// index is the second stage: writing the indexes into db.
func (l *loader) index(db *badger.DB) (*LoadReport, error) {
	if l.opts.Progress != nil {
		l.opts.Progress(l.progress("index"))
	}
	if err := l.build(db); err != nil {
		return l.finalReport(), err
	}
	if l.opts.Progress != nil {
		l.opts.Progress(l.progress("done"))
	}
	return l.finalReport(), nil
}

func (l *loader) finalReport() *LoadReport {
	r := l.report
	r.Parsed, r.BadLines = l.parsed.Load(), l.bad.Load()
	l.errMu.Lock()
	r.Errors = append([]string(nil), l.errs...)
	l.errMu.Unlock()
	return &r
}

// loadBadgerOptions are the Badger options for a bulk load: no conflict detection, small
// memtables (the StreamWriter writes tables directly), small caches, tables of
// tableBytes (loadTableSize: Badger's StreamWriter builds up to 16 at once). The
// StreamWriter writes at the last of Badger's seven levels, whose tables are 32 times
// the base table size.
func loadBadgerOptions(dir string, log *slog.Logger, tableBytes int64) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(badgerLogger{log}).
		WithDetectConflicts(false).
		WithNumCompactors(2).
		WithMemTableSize(8 << 20).
		WithNumMemtables(2).
		WithBlockCacheSize(16 << 20).
		WithValueLogFileSize(64 << 20).
		WithMaxLevels(7).
		WithBaseTableSize(tableBytes / 32)
}

// LoadMemory loads sources into an in-memory KB and opens it. It suits small KBs
// (the demo KB, tests).
func LoadMemory(ctx context.Context, sources []Source, opts LoadOptions) (*Store, *LoadReport, error) {
	if err := opts.Validate(); err != nil {
		return nil, nil, err
	}
	tmp := opts.TempDir
	if tmp == "" {
		var err error
		if tmp, err = os.MkdirTemp("", "trawl-kb-load-"); err != nil {
			return nil, nil, err
		}
		defer func() { _ = os.RemoveAll(tmp) }()
	}
	// Parse first, so that bad input fails before a database is made.
	start := time.Now()
	l := newLoader(ctx, opts, tmp, false)
	defer l.release()
	if err := l.parse(sources); err != nil {
		return nil, l.finalReport(), err
	}
	bopts := badger.DefaultOptions("").WithInMemory(true).WithLogger(nil).
		WithDetectConflicts(false).WithMemTableSize(8 << 20).WithNumMemtables(2).
		WithBlockCacheSize(8 << 20).WithBaseTableSize(128 << 10)
	db, err := badger.Open(bopts)
	if err != nil {
		return nil, nil, fmt.Errorf("ontology: open an in-memory KB: %w", err)
	}
	rep, err := l.index(db)
	rep.Total = time.Since(start)
	if err != nil {
		_ = db.Close()
		return nil, rep, err
	}
	st, err := newStore(db, "(memory)", opts.Options)
	if err != nil {
		_ = db.Close()
		return nil, rep, err
	}
	return st, rep, nil
}

// Open opens the KB in dir read-only. It refuses a directory that is not a KB, a load
// that did not finish, and a KB written with another layout version.
func Open(dir string, opts Options) (*Store, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	m, err := readMarker(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(dir); serr != nil {
			return nil, fmt.Errorf("ontology: no KB at %s (load one with 'trawl kb load DUMP... --kb %s'): %w", dir, dir, serr)
		}
		return nil, fmt.Errorf("%w: %s has no %s", ErrNotKB, dir, markerFile)
	case err != nil:
		return nil, err
	case m.Layout != LayoutVersion:
		return nil, &LayoutError{Dir: dir, Found: m.Layout, Supported: LayoutVersion}
	case m.State != "complete":
		return nil, fmt.Errorf("%w: the load into %s did not finish (state %q); run 'trawl kb load' again", ErrIncomplete, dir, m.State)
	}
	bopts := badger.DefaultOptions(filepath.Join(dir, badgerDir)).
		WithReadOnly(true).
		WithLogger(badgerLogger{opts.logger()}).
		WithBlockCacheSize(opts.BlockCacheMB << 20).
		WithIndexCacheSize(opts.IndexCacheMB << 20).
		WithNumMemtables(1).WithMemTableSize(8 << 20)
	db, err := badger.Open(bopts)
	if err != nil {
		return nil, fmt.Errorf("ontology: open the KB in %s: %w", dir, err)
	}
	s, err := newStore(db, dir, opts)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}
