package ontology

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawl-dev/trawl/graph"
	"golang.org/x/sync/errgroup"
)

// LoadReport describes a finished load.
type LoadReport struct {
	Sources   []SourceReport
	Parsed    int64 // triples read (before duplicates were dropped)
	BadLines  int64 // lines skipped as malformed
	Errors    []string
	Facts     int64 // distinct facts stored, taxonomy included
	Nodes     int64
	Literals  int64
	Entities  int64
	Classes   int64
	Relations int
	SpillRuns int           // sorted runs written to temporary files (0: sorted in memory)
	ParseTime time.Duration // reading and parsing
	IndexTime time.Duration // sorting and writing the indexes
	Total     time.Duration
}

// SourceReport describes one source of a load.
type SourceReport struct {
	Name     string `json:"name"`
	Format   string `json:"format"`
	Triples  int64  `json:"triples"`
	BadLines int64  `json:"bad_lines"`
}

// maxReportedErrors bounds LoadReport.Errors.
const maxReportedErrors = 100

// chunkSize is the unit of parallel parsing for line-based formats.
const chunkSize = 1 << 20

// maxTermBytes bounds the size of one term (a literal's text, an IRI): a node record
// part must stay below Badger's 1 MiB inline value limit (a long part 0 is kept out of
// its node bucket, see inlinePart0). A longer term makes its line bad.
const maxTermBytes = 256 << 10

// checkTriple reports a term too large to store.
func checkTriple(t graph.Triple) error {
	for _, x := range [...]graph.Term{t.S, t.P, t.O} {
		if n := len(x.Value) + len(x.Datatype); n > maxTermBytes {
			return termTooLong(n)
		}
	}
	return nil
}

func termTooLong(n int) error {
	return fmt.Errorf("a term of %d bytes is longer than the %d KiB limit", n, maxTermBytes>>10)
}

type loader struct {
	ctx  context.Context
	opts LoadOptions
	log  *slog.Logger
	salt uint64
	tmp  string

	triples *fixedSorter[rec3]
	terms   *varSorter
	lits    *varSorter
	bands   *fixedSorter[rec2]
	dates   *fixedSorter[rec2]
	preds   predTable

	pairBytes  int64 // memory of the pair spool before it spills
	setBytes   int64 // memory of the workers' term sets
	mergeBytes int64 // read buffers of the final merge, all run files together
	readBlock  int   // read buffer of one run file in the final merge
	tableBytes int64 // size of Badger's tables, and of the writers' batches

	read, parsed, bad atomic.Int64
	errMu             sync.Mutex
	errs              []string
	report            LoadReport
	file              atomic.Value // name of the file being parsed
	total             int64
}

type predEntry struct {
	pid uint64
	iri string
}

// predTable gives each predicate a small dense index, for sorting.
type predTable struct {
	mu   sync.Mutex
	idx  map[uint64]uint64
	list []predEntry
}

const maxPredicates = 1 << 24

func (t *predTable) index(pid uint64, iri string) (uint64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.idx[pid]; ok {
		if t.list[i].iri != iri {
			return 0, fmt.Errorf("%w: predicates <%s> and <%s>; load again with another ID salt", ErrIDCollision, t.list[i].iri, iri)
		}
		return i, nil
	}
	if len(t.list) >= maxPredicates {
		return 0, fmt.Errorf("ontology: more than %d distinct predicates", maxPredicates)
	}
	if t.idx == nil {
		t.idx = map[uint64]uint64{}
	}
	i := uint64(len(t.list))
	t.idx[pid] = i
	t.list = append(t.list, predEntry{pid, iri})
	return i, nil
}

// newLoader makes the loader of a load into tmp. bounded says that the budget bounds
// the whole process (Load): the Go runtime's fixed part (goFixedMemory) is then set
// aside before the shares. An in-memory load (LoadMemory) holds the KB on the Go heap
// anyway, and its budget is the sort memory alone.
func newLoader(ctx context.Context, opts LoadOptions, tmp string, bounded bool) *loader {
	l := &loader{ctx: ctx, opts: opts, log: opts.logger(), salt: opts.IDSalt, tmp: tmp}
	// The memory budget (SortMemoryMB) is shared out once: each sorter's buffers and
	// in-memory runs, the pairs of the 'P' index, the workers' term sets.
	mem := opts.SortMemoryMB << 20
	if bounded {
		mem = sortableMemory(mem, opts.Workers)
	}
	share := func(percent int64) int64 { return mem * percent / 100 }
	l.triples = newFixedSorter("triples", tmp, share(shareTriples), 2, permuteTriple,
		func(_ int, rs, tmp []rec3) { sortWords(rs, tmp) })
	l.terms = newVarSorter("terms", tmp, share(shareTerms))
	l.lits = newVarSorter("literals", tmp, share(shareLiterals))
	l.bands = newFixedSorter("bands", tmp, share(shareBands), 1, func(_ int, r rec2) rec2 { return r },
		func(_ int, rs, tmp []rec2) { sortWords(rs, tmp) })
	l.dates = newFixedSorter("dates", tmp, share(shareDates), 1, func(_ int, r rec2) rec2 { return r },
		func(_ int, rs, tmp []rec2) { sortWords(rs, tmp) })
	l.pairBytes = share(sharePairs)
	l.setBytes = share(shareSets)
	l.mergeBytes = share(shareMerge)
	l.tableBytes = loadTableSize(opts.SortMemoryMB << 20)
	l.file.Store("")
	return l
}

// goFixedMemory is the part of the budget set aside for the Go runtime whatever the
// budget, for a load with the given number of parsing workers: Badger's memtable and
// the runtime (32 MiB), and each worker's chunks and batches (8 MiB); with two
// workers, 33 MiB were live while parsing (docs/benchmarks.md). The shares divide the
// rest (sortableMemory).
func goFixedMemory(workers int) int64 { return 32<<20 + int64(workers)*8<<20 }

// sortableMemory is the part of a budget of mem bytes that the shares divide.
func sortableMemory(mem int64, workers int) int64 {
	return max(mem-goFixedMemory(workers), mem/4)
}

// loadTableSize is the size of the tables a load writes for a budget of mem bytes:
// 1/512 of the budget, a power of two between 128 KiB and 2 MiB. Badger's
// StreamWriter builds up to 16 tables at once plus one per open stream, each
// builder holding up to a few times the table size, and every stream queues up to
// four write batches of the same size (kvWriter): about 128 tables' worth, a quarter
// of the budget, which the Go heap finds in what the sort buffers leave once parsing
// ends.
func loadTableSize(mem int64) int64 {
	t := int64(128 << 10)
	for t < 2<<20 && 2*t <= mem/512 {
		t *= 2
	}
	return t
}

// Shares of the memory budget, in percent. The triples are sorted in two orders and
// take 72 bytes each while sorted (36 % keeps 5.4 M triples in memory per GiB); the band
// records (16 per distinct string) and the term dictionary come next. The read buffers
// of the final merge (shareMerge) reuse part of what the sorters free once parsing ends
// (the sort scratch buffers, the spare buffers of one-order sorters, one arena of each
// variable-length sorter: about 40 % of the budget).
const (
	shareMerge    = 10
	shareTriples  = 36
	shareTerms    = 18
	shareLiterals = 10
	shareBands    = 18
	shareDates    = 4
	sharePairs    = 8
	shareSets     = 6
)

// release frees the sort buffers and in-memory runs (after the load, or when it failed).
func (l *loader) release() {
	l.triples.release()
	l.terms.release()
	l.lits.release()
	l.bands.release()
	l.dates.release()
}

// permuteTriple rearranges a buffer record for order o, from the layout of order o-1
// (the input layout (s, p, o) for order 0); see fixedSorter.spill. The triples are
// sorted by subject (SPO) and by object (OPS); the pairs of each relation come out of
// the SPO walk in order (pairSpool).
func permuteTriple(o int, r rec3) rec3 {
	if o == 1 { // (s,p,o) → (o,p,s)
		return rec3{r[2], r[1], r[0]}
	}
	return r
}

// badLine records a malformed line; past MaxErrors it returns the error that stops the
// load.
func (l *loader) badLine(src *SourceReport, perr *graph.ParseError) error {
	n := l.bad.Add(1)
	l.errMu.Lock()
	src.BadLines++
	if len(l.errs) < maxReportedErrors {
		l.errs = append(l.errs, perr.Error())
	}
	l.errMu.Unlock()
	l.log.Warn("bad input line skipped", "file", perr.File, "line", perr.Line, "col", perr.Col, "err", perr.Err)
	if n > int64(l.opts.MaxErrors) {
		return fmt.Errorf("%w: %d bad lines, more than the %d allowed (--max-errors); the last one: %w",
			ErrTooManyErrors, n, l.opts.MaxErrors, perr)
	}
	return nil
}

// job is a unit of parsing work: a chunk of whole lines, or a batch of triples the
// Turtle parser has read.
type job struct {
	src       *SourceReport
	fileIdx   int
	name      string
	format    Format
	data      []byte
	firstLine int
	triples   []graph.Triple
}

// parseAll reads every source and feeds the sorters.
func (l *loader) parseAll(sources []Source) error {
	for _, s := range sources {
		l.total += s.Size
	}
	g, ctx := errgroup.WithContext(l.ctx)
	jobs := make(chan job, 2*l.opts.Workers)
	for range l.opts.Workers {
		enc := l.newEncoder()
		g.Go(func() error {
			defer enc.release()
			for j := range jobs {
				if err := enc.do(ctx, j); err != nil {
					return err
				}
			}
			return enc.flush()
		})
	}
	g.Go(func() error {
		defer close(jobs)
		for _, s := range sources {
			l.report.Sources = append(l.report.Sources, SourceReport{Name: s.Name})
		}
		for i, s := range sources {
			if err := l.readSource(ctx, i, s, &l.report.Sources[i], jobs); err != nil {
				return err
			}
		}
		return nil
	})
	done := make(chan struct{})
	go l.progressLoop(done)
	err := g.Wait()
	close(done)
	if err != nil {
		return err
	}
	// The sorters sort their last buffers in parallel.
	var fg errgroup.Group
	for _, s := range []interface{ finish() error }{l.triples, l.terms, l.lits, l.bands, l.dates} {
		fg.Go(s.finish)
	}
	return fg.Wait()
}

func (l *loader) progressLoop(done chan struct{}) {
	if l.opts.Progress == nil {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			l.opts.Progress(l.progress("parse"))
		}
	}
}

func (l *loader) progress(phase string) Progress {
	return Progress{Phase: phase, File: l.file.Load().(string), Read: l.read.Load(), Total: l.total,
		Triples: l.parsed.Load(), BadLines: l.bad.Load()}
}

// readSource splits one source into jobs.
func (l *loader) readSource(ctx context.Context, idx int, s Source, rep *SourceReport, jobs chan<- job) error {
	l.file.Store(s.Name)
	in, err := openSource(s, &l.read)
	if err != nil {
		return err
	}
	defer func() { _ = in.close() }()
	rep.Format = in.format.String()
	l.log.Info("loading", "file", s.Name, "format", rep.Format)
	switch in.format {
	case FormatTurtle:
		return l.readTurtle(ctx, idx, s, in.r, rep, jobs)
	case FormatRDFXML:
		return l.readRDFXML(ctx, idx, s, in.r, rep, jobs)
	}
	line := 1
	var carry []byte
	eof := false
	for !eof {
		if err := ctx.Err(); err != nil {
			return err
		}
		var buf []byte
		if len(carry) < chunkSize/2 {
			buf = chunkPool.Get().([]byte)[:len(carry)]
		} else {
			buf = make([]byte, len(carry), 2*len(carry))
		}
		copy(buf, carry)
		n, err := io.ReadFull(in.r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
		case err != nil:
			return fmt.Errorf("read %s: %w", s.Name, err)
		}
		cut := len(buf)
		if !eof {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				if len(buf) > graph.MaxLineBytes {
					perr := &graph.ParseError{File: s.Name, Line: line, Err: graph.ErrLineTooLong}
					if err := l.badLine(rep, perr); err != nil {
						return err
					}
					if err := skipLine(in.r); err != nil {
						eof = true
					}
					line++
					carry = nil
					continue
				}
				carry = buf // a long line: read more
				continue
			}
			cut = i + 1
		}
		chunk := buf[:cut]
		carry = append([]byte(nil), buf[cut:]...)
		j := job{src: rep, fileIdx: idx, name: s.Name, format: in.format, data: chunk, firstLine: line}
		line += countLines(chunk)
		select {
		case jobs <- j:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// chunkPool recycles the chunk buffers of line-based formats; workers return a chunk
// once parsed (the parsed terms are copies).
var chunkPool = sync.Pool{New: func() any { return make([]byte, 0, chunkSize) }}

// skipLine discards input up to and including the next '\n'.
func skipLine(r io.ByteReader) error {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return err
		}
		if c == '\n' {
			return nil
		}
	}
}

// countLines counts the line ends in a chunk as eachLine numbers them: '\n', "\r\n",
// and a lone '\r'.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if bytes.IndexByte(b, '\r') >= 0 {
		for i, c := range b {
			if c == '\r' && (i+1 >= len(b) || b[i+1] != '\n') {
				n++
			}
		}
	}
	return n
}

// eachLine calls fn for each line of a chunk with its number.
func eachLine(chunk []byte, first int, fn func(line []byte, n int) error) error {
	n := first
	for len(chunk) > 0 {
		var l []byte
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			l, chunk = chunk[:i], chunk[i+1:]
		} else {
			l, chunk = chunk, nil
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		if bytes.IndexByte(l, '\r') >= 0 {
			for _, part := range bytes.Split(l, []byte{'\r'}) {
				if err := fn(part, n); err != nil {
					return err
				}
				n++
			}
			continue
		}
		if err := fn(l, n); err != nil {
			return err
		}
		n++
	}
	return nil
}

// readTurtle parses a Turtle source sequentially and hands batches of triples to the
// workers.
func (l *loader) readTurtle(ctx context.Context, idx int, src Source, r io.Reader, rep *SourceReport, jobs chan<- job) error {
	name := src.Name
	const batch = 4096
	cur := make([]graph.Triple, 0, batch)
	send := func() error {
		if len(cur) == 0 {
			return nil
		}
		select {
		case jobs <- job{src: rep, fileIdx: idx, name: name, format: FormatTurtle, triples: cur}:
		case <-ctx.Done():
			return ctx.Err()
		}
		cur = make([]graph.Triple, 0, batch)
		return nil
	}
	emit := func(ts []graph.Triple) error {
		cur = append(cur, ts...)
		if len(cur) >= batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			return send()
		}
		return nil
	}
	bad := func(perr *graph.ParseError) error { return l.badLine(rep, perr) }
	opts := graph.TurtleOptions{Name: name, Base: src.Base, BlankPrefix: blankPrefix(idx), Check: checkTriple}
	if err := graph.ReadTurtle(r, opts, emit, bad); err != nil {
		return err
	}
	return send()
}

// readRDFXML reads an RDF/XML document (graph.ReadRDFXML) and sends its triples as
// the jobs of a Turtle file. The document is one unit: an error in it is the error of
// the load (RDF/XML has no lines to skip).
func (l *loader) readRDFXML(ctx context.Context, idx int, src Source, r io.Reader, rep *SourceReport, jobs chan<- job) error {
	const batch = 4096
	cur := make([]graph.Triple, 0, batch)
	send := func() error {
		if len(cur) == 0 {
			return nil
		}
		select {
		case jobs <- job{src: rep, fileIdx: idx, name: src.Name, format: FormatTurtle, triples: cur}:
		case <-ctx.Done():
			return ctx.Err()
		}
		cur = make([]graph.Triple, 0, batch)
		return nil
	}
	err := graph.ReadRDFXML(r, src.Name, src.Base, blankPrefix(idx), func(t graph.Triple) error {
		if err := checkTriple(t); err != nil {
			return fmt.Errorf("%s: %v", src.Name, err)
		}
		cur = append(cur, t)
		if len(cur) >= batch {
			return send()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return send()
}

// blankPrefix is the prefix that scopes the blank nodes of file idx: "_:b" of file 3
// becomes "f3_b" (graph.TurtleOptions.BlankPrefix names the Turtle parser's anonymous
// nodes "f3-gN" the same way).
func blankPrefix(idx int) string { return "f" + strconv.Itoa(idx) }

// encoder turns triples into sorter records; one per worker.
type encoder struct {
	l         *loader
	seen      *idSet
	recent    [recentSlots]graph.ID // the terms met last, by hash slot: most repeats stop here
	normSeen  *idSet
	keys      []byte        // the term keys of the current triple, or of the pending lines
	pending   []pendingLine // parsed N-Triples lines not encoded yet
	touched   uint64        // what encodePending read ahead
	predCache map[graph.ID]uint64
	triples   []rec3
	terms     []varItem
	termArena []byte
	lits      []varItem
	litArena  []byte
	bands     []rec2
	bandKeys  []uint64 // the band keys of the current literal
	dates     []rec2
	parsed    int64
}

func (l *loader) newEncoder() *encoder {
	per := l.setBytes / int64(max(l.opts.Workers, 1))
	return &encoder{l: l, seen: newIDSet(per * 3 / 4), normSeen: newIDSet(per / 4), predCache: map[graph.ID]uint64{}}
}

// release frees the encoder's term sets.
func (e *encoder) release() {
	e.seen.release()
	e.normSeen.release()
}

const encoderBatch = 1 << 15

// recentSlots is the size of an encoder's direct-mapped cache of recently met terms
// (32 KiB, within the processor's first-level cache): the subject of the previous
// line, classes, countries, languages. Only the other terms probe the larger idSet.
const recentSlots = 4096

func (e *encoder) do(ctx context.Context, j job) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	switch j.format {
	case FormatTurtle:
		for _, t := range j.triples {
			if err = e.add(t); err != nil {
				break
			}
		}
	case FormatNTriples:
		err = e.ntChunk(j)
	case FormatTSV:
		err = e.tsvChunk(j)
	}
	if cap(j.data) == chunkSize {
		chunkPool.Put(j.data[:0]) //nolint:staticcheck // a slice header is small
	}
	if err != nil {
		return err
	}
	if j.format == FormatTurtle {
		e.l.errMu.Lock()
		j.src.Triples += int64(len(j.triples))
		e.l.errMu.Unlock()
	}
	if len(e.triples) >= encoderBatch {
		return e.flush()
	}
	return nil
}

// ntChunk encodes a chunk of N-Triples lines. It works on the term keys of each line
// (graph.AppendLineKeys), so that a term is decoded only the first time this worker
// meets it.
func (e *encoder) ntChunk(j job) error {
	pfx := blankPrefix(j.fileIdx) + "_"
	var count int64
	e.keys, e.pending = e.keys[:0], e.pending[:0]
	err := eachLine(j.data, j.firstLine, func(line []byte, n int) error {
		start := len(e.keys)
		var ends [3]int
		var ok bool
		var err error
		e.keys, ends, ok, err = graph.AppendLineKeys(e.keys, line, pfx)
		if err != nil {
			pe, isPE := err.(*graph.ParseError)
			if !isPE {
				pe = &graph.ParseError{Err: err}
			}
			pe.File, pe.Line = j.name, n
			return e.l.badLine(j.src, pe)
		}
		if !ok {
			return nil
		}
		for i, from := range [3]int{start, ends[0], ends[1]} {
			if size := ends[i] - from; size > maxTermBytes {
				e.keys = e.keys[:start]
				return e.l.badLine(j.src, &graph.ParseError{File: j.name, Line: n, Err: termTooLong(size)})
			}
		}
		count++
		e.pending = append(e.pending, pendingLine{start: start, ends: ends})
		if len(e.pending) == lineBatch {
			return e.encodePending()
		}
		return nil
	})
	if err == nil {
		err = e.encodePending()
	}
	e.l.errMu.Lock()
	j.src.Triples += count
	e.l.errMu.Unlock()
	return err
}

// lineBatch is how many parsed N-Triples lines an encoder holds before it encodes them.
const lineBatch = 64

// pendingLine is a parsed line waiting to be encoded: its term keys are
// encoder.keys[start:ends[2]], cut at ends[0] and ends[1].
type pendingLine struct {
	start    int
	ends     [3]int
	sid, oid graph.ID
}

// encodePending encodes the pending lines in two passes. The first hashes their
// subjects and objects and reads the term set's slot of each one the recent-term
// cache does not hold; the term set is far larger than the processor's caches, so
// these reads miss, and issued together, with nothing else to wait for, the misses
// overlap. The second pass then finds the slots in the cache.
func (e *encoder) encodePending() error {
	salt := e.l.salt
	for i := range e.pending {
		p := &e.pending[i]
		p.sid = graph.HashTermKey(e.keys[p.start:p.ends[0]], salt)
		p.oid = graph.HashTermKey(e.keys[p.ends[1]:p.ends[2]], salt)
	}
	// A loop of little else than the reads, so that many are in flight at once.
	var x uint64
	for _, p := range e.pending {
		if e.recent[uint64(p.sid)%recentSlots] != p.sid {
			x ^= e.seen.peek(uint64(p.sid))
		}
		if e.recent[uint64(p.oid)%recentSlots] != p.oid {
			x ^= e.seen.peek(uint64(p.oid))
		}
	}
	e.touched ^= x // keeps the reads
	for _, p := range e.pending {
		k := e.keys
		if _, _, err := e.addIDs(k[p.start:p.ends[0]], k[p.ends[0]:p.ends[1]], k[p.ends[1]:p.ends[2]], p.sid, p.oid); err != nil {
			return err
		}
	}
	e.keys, e.pending = e.keys[:0], e.pending[:0]
	return nil
}

func (e *encoder) tsvChunk(j job) error {
	pfx := blankPrefix(j.fileIdx) + "_"
	var count int64
	err := eachLine(j.data, j.firstLine, func(line []byte, n int) error {
		f, ok, terr := parseTSVLine(line)
		if terr != nil {
			return e.l.badLine(j.src, &graph.ParseError{File: j.name, Line: n, Col: terr.col, Err: errors.New(terr.msg)})
		}
		if !ok {
			return nil
		}
		if err := checkTriple(f.T); err != nil {
			return e.l.badLine(j.src, &graph.ParseError{File: j.name, Line: n, Err: err})
		}
		count++
		t := f.T.WithBlankPrefix(pfx)
		sNew, oNew, err := e.addNew(t)
		if err != nil {
			return err
		}
		if e.l.opts.DeriveLabels {
			if f.SName != "" && sNew {
				if err := e.addLabel(t.S, f.SName); err != nil {
					return err
				}
			}
			if f.OName != "" && oNew {
				if err := e.addLabel(t.O, f.OName); err != nil {
					return err
				}
			}
		}
		return nil
	})
	e.l.errMu.Lock()
	j.src.Triples += count
	e.l.errMu.Unlock()
	return err
}

func (e *encoder) addLabel(s graph.Term, name string) error {
	label, lang := labelFromName(name)
	if label == "" {
		return nil
	}
	_, _, err := e.addNew(graph.Triple{S: s, P: graph.NewIRI(RDFSLabel), O: graph.NewLangString(label, lang)})
	return err
}

func (e *encoder) add(t graph.Triple) error {
	_, _, err := e.addNew(t)
	return err
}

// addNew encodes one triple and reports whether its subject and object were new to
// this worker.
func (e *encoder) addNew(t graph.Triple) (sNew, oNew bool, err error) {
	var ends [3]int
	e.keys = e.keys[:0]
	for i, x := range [3]graph.Term{t.S, t.P, t.O} {
		e.keys = graph.AppendTermKey(e.keys, x)
		ends[i] = len(e.keys)
	}
	return e.addKeys(e.keys, ends)
}

// addKeys encodes the triple whose term keys are keys[:ends[0]], keys[ends[0]:ends[1]]
// and keys[ends[1]:ends[2]], and reports whether its subject and object were new to
// this worker.
func (e *encoder) addKeys(keys []byte, ends [3]int) (sNew, oNew bool, err error) {
	skey, okey := keys[:ends[0]], keys[ends[1]:ends[2]]
	return e.addIDs(skey, keys[ends[0]:ends[1]], okey, graph.HashTermKey(skey, e.l.salt), graph.HashTermKey(okey, e.l.salt))
}

// addIDs is addKeys with the keys apart and the identifiers of subject and object
// computed.
func (e *encoder) addIDs(skey, pkey, okey []byte, sid, oid graph.ID) (sNew, oNew bool, err error) {
	sNew = e.term(skey, sid)
	oNew = e.term(okey, oid)
	pid := graph.HashTermKey(pkey, e.l.salt)
	pi, ok := e.predCache[pid]
	if !ok {
		p, _, derr := graph.DecodeTermKey(pkey)
		if derr != nil {
			return false, false, derr
		}
		if pi, err = e.l.preds.index(uint64(pid), p.Value); err != nil {
			return false, false, err
		}
		e.predCache[pid] = pi
	}
	e.triples = append(e.triples, rec3{uint64(sid), pi, uint64(oid)})
	e.parsed++
	if len(e.triples) >= encoderBatch {
		err = e.flush()
	}
	return sNew, oNew, err
}

// term reports whether this worker meets the term with the given key and identifier
// for the first time and, if so, emits its dictionary entry and its literal index
// entries.
func (e *encoder) term(key []byte, id graph.ID) bool {
	slot := &e.recent[uint64(id)%recentSlots]
	if *slot == id {
		return false
	}
	*slot = id
	if !e.seen.add(uint64(id)) {
		return false
	}
	start := len(e.termArena)
	e.termArena = append(e.termArena, key...)
	e.terms = append(e.terms, varItem{k1: uint64(id), data: e.termArena[start:len(e.termArena):len(e.termArena)]})
	if isLiteralID(id) {
		if x, _, err := graph.DecodeTermKey(key); err == nil {
			e.literal(id, x)
		}
	}
	return true
}

func (e *encoder) literal(id graph.ID, x graph.Term) {
	cls := graph.ClassOf(x)
	if cls == graph.LiteralDate {
		d, _ := graph.DateOf(x)
		e.dates = append(e.dates, rec2{packDate(d), uint64(id)})
		return
	}
	norm := graph.LiteralForm(x.Value)
	if norm == "" || len(norm) > graph.MaxExactForm {
		return
	}
	h := graph.FormHash(norm)
	start := len(e.litArena)
	e.litArena = append(e.litArena, norm...)
	e.lits = append(e.lits, varItem{k1: h, k2: uint64(id), data: e.litArena[start:len(e.litArena):len(e.litArena)]})
	if cls == graph.LiteralString && len(norm) <= graph.MaxApproxForm && e.normSeen.add(h) {
		e.bandKeys = graph.AppendBandKeys(e.bandKeys[:0], norm)
		for _, b := range e.bandKeys {
			e.bands = append(e.bands, rec2{b, h})
		}
	}
}

// flush hands the worker's records to the sorters.
func (e *encoder) flush() error {
	l := e.l
	l.parsed.Add(e.parsed)
	e.parsed = 0
	if err := l.triples.add(e.triples); err != nil {
		return err
	}
	if err := l.terms.add(e.terms); err != nil {
		return err
	}
	if err := l.lits.add(e.lits); err != nil {
		return err
	}
	if err := l.bands.add(e.bands); err != nil {
		return err
	}
	if err := l.dates.add(e.dates); err != nil {
		return err
	}
	e.triples, e.terms, e.lits, e.bands, e.dates = e.triples[:0], e.terms[:0], e.lits[:0], e.bands[:0], e.dates[:0]
	e.termArena, e.litArena = e.termArena[:0], e.litArena[:0] // the sorters copied the bytes
	return nil
}

// removeAllIn removes the contents of dir except the names in keep.
func removeAllIn(dir string, keep ...string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
outer:
	for _, e := range ents {
		for _, k := range keep {
			if e.Name() == k {
				continue outer
			}
		}
		if err := os.RemoveAll(dir + string(os.PathSeparator) + e.Name()); err != nil {
			return err
		}
	}
	return nil
}
