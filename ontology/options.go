package ontology

import (
	"fmt"
	"log/slog"
	"runtime"
)

// Options configures a store opened for reading (Open, OpenDemo, LoadMemory). Start
// from DefaultOptions and override fields.
type Options struct {
	// Logger receives diagnostics. Nil discards them.
	Logger *slog.Logger
	// BlockCacheMB is Badger's block cache in MiB (decompressed table blocks).
	BlockCacheMB int64
	// IndexCacheMB bounds the memory of table indexes and Bloom filters in MiB; 0 keeps
	// them all in memory, which is fastest for KBs up to a few GB.
	IndexCacheMB int64
	// MinScore is the lowest 2-gram Dice score of an approximate literal candidate
	// (Candidates, FindEntities). PARIS drops candidates below 0.78; the default is lower
	// so that the caller can choose.
	MinScore float64
	// NameRelations are the relations whose literal values name an entity; FindEntities
	// looks entities up through them. The default covers YAGO2, YAGO3 and YAGO 4.5.
	NameRelations []string
}

// DefaultNameRelations are the label relations of YAGO2, YAGO3 and YAGO 4.5 (and of
// most RDF data sets).
var DefaultNameRelations = []string{
	RDFSLabel,
	skosNS + "prefLabel",
	skosNS + "altLabel",
	schemaNS + "name",
	schemaNS + "alternateName",
	YAGONamespace + "hasPreferredName",
	YAGONamespace + "isCalled",
	YAGONamespace + "hasGivenName",
	YAGONamespace + "hasFamilyName",
	YAGONamespace + "redirectedFrom",
	"http://xmlns.com/foaf/0.1/name",
}

// RDFSLabel is rdfs:label.
const RDFSLabel = "http://www.w3.org/2000/01/rdf-schema#label"

// DefaultOptions returns options for a read-only store of up to a few GB.
func DefaultOptions() Options {
	return Options{BlockCacheMB: 256, MinScore: 0.5, NameRelations: DefaultNameRelations}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	switch {
	case o.BlockCacheMB < 0:
		return fmt.Errorf("ontology: BlockCacheMB must be ≥ 0, got %d", o.BlockCacheMB)
	case o.IndexCacheMB < 0:
		return fmt.Errorf("ontology: IndexCacheMB must be ≥ 0, got %d", o.IndexCacheMB)
	case o.MinScore < 0 || o.MinScore > 1:
		return fmt.Errorf("ontology: MinScore must be in [0,1], got %g", o.MinScore)
	}
	return nil
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// LoadOptions configures a load. Start from DefaultLoadOptions and override fields.
type LoadOptions struct {
	// Options are used for the store that LoadMemory returns, and for the logger.
	Options
	// MaxErrors is the number of bad input lines tolerated; the load stops with
	// ErrTooManyErrors at the next one. 0 accepts no bad line.
	MaxErrors int
	// Replace lets Load overwrite a directory that holds a complete KB.
	Replace bool
	// SortMemoryMB is the memory budget of the load, in MiB, which bounds the peak of
	// the process's anonymous memory: the sort buffers, the in-memory runs, the pairs
	// of each relation, the parsers' term sets, the read buffers of the final merge,
	// and the Go runtime with Badger's table builders. Beyond it, sorted runs go to
	// temporary files (TempDir). Load lowers the Go runtime's soft memory limit while
	// it runs; below about 128 MiB the budget is exceeded (see the package
	// documentation).
	SortMemoryMB int64
	// Workers is the number of parsing goroutines (default: GOMAXPROCS).
	Workers int
	// IDSalt seeds the hash of node identifiers. Change it only if a load reports
	// ErrIDCollision.
	IDSalt uint64
	// DeriveLabels gives the resources of bare-name TSV files (YAGO3-10) an rdfs:label
	// made from their name, as YAGO3 does from Wikipedia titles.
	DeriveLabels bool
	// TempDir holds the sort runs; the default is a folder inside the KB directory (or
	// the system temp folder for in-memory loads).
	TempDir string
	// Progress, if set, is called about once a second and at the end of each phase.
	Progress func(Progress)
}

// DefaultLoadOptions returns the options for a load on a small machine.
func DefaultLoadOptions() LoadOptions {
	return LoadOptions{Options: DefaultOptions(), MaxErrors: 1000, SortMemoryMB: 1024,
		Workers: runtime.GOMAXPROCS(0), DeriveLabels: true}
}

// Validate reports the first invalid field.
func (o LoadOptions) Validate() error {
	if err := o.Options.Validate(); err != nil {
		return err
	}
	switch {
	case o.MaxErrors < 0:
		return fmt.Errorf("ontology: MaxErrors must be ≥ 0, got %d", o.MaxErrors)
	case o.SortMemoryMB < 4:
		return fmt.Errorf("ontology: SortMemoryMB must be ≥ 4, got %d", o.SortMemoryMB)
	case o.Workers < 1:
		return fmt.Errorf("ontology: Workers must be ≥ 1, got %d", o.Workers)
	}
	return nil
}

// Progress reports how far a load is.
type Progress struct {
	Phase    string // "parse", "index", "done"
	File     string // the file being parsed
	Read     int64  // bytes read so far (of all files, compressed size for .gz)
	Total    int64  // bytes of all files (0 if unknown)
	Triples  int64  // triples parsed so far
	BadLines int64  // bad lines skipped so far
}
