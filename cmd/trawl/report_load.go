package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/align"
	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// The report reads every file of a run directory that exists and says, for each one
// that does not, which command writes it. The files and their writers:
const (
	fileProbeRun = "probe-run.json" // written by 'trawl probe' next to form.json
	fileFormPNG  = "form.png"       // screenshot of the form ('trawl probe', screenshots on)
	// fileRecordsPNG is a screenshot of a result page with the records outlined, if a
	// stage made one; the report shows it but never starts a browser to make one.
	fileRecordsPNG = "screenshots/records.png"
)

const (
	byProbe   = "trawl probe URL --out DIR"
	byExtract = "trawl extract RUN_DIR"
	bySchema  = "trawl schema RUN_DIR"
	byGraph   = "trawl graph RUN_DIR"
	byAlign   = "trawl align RUN_DIR --kb KB"
	byEnrich  = "trawl run URL (or trawl demo): the enrichment step after the alignment"
)

// producedBy names the command that writes each run file.
var producedBy = map[string]string{
	probe.FormFile:          byProbe,
	probe.ProbesFile:        byProbe,
	probe.PagesDir:          byProbe,
	fileProbeRun:            byProbe,
	fileFormPNG:             byProbe + " (with screenshots)",
	records.WrapperFile:     byExtract,
	records.RecordsFile:     byExtract,
	schema.SchemaFile:       bySchema,
	rundir.GraphFile:        byGraph,
	align.FileTSV:           byAlign,
	align.FileRDF:           byAlign,
	align.FileLinks:         byAlign,
	align.FileOptions:       byAlign,
	align.FileRun:           byAlign,
	align.FileUnderstanding: byEnrich,
	align.FileEnrichment:    byEnrich,
}

// runData is everything the report read from a run directory. A nil field means the
// file was missing or could not be read; missing and bad say which.
type runData struct {
	dir     string
	missing map[string]bool
	bad     map[string]error
	errs    []error // the errors of bad, in reading order
	found   int     // run files present

	form          *probe.Form
	probeRun      *probeRunInfo
	probes        []probe.Probe
	wrapper       *records.Wrapper
	records       []records.Record
	schema        *schema.Schema
	graph         *graphData
	alignment     *alignmentTSV
	alignRun      *alignRunInfo
	alignOptions  map[string]any
	linkThreshold float64 // from options.json (or understanding.json); 0 when unknown
	links         map[[2]string]bool
	understanding *align.Understanding
	enrichment    *enrichmentData
	markers       []stageMarker
}

// probeRunInfo is what the report reads of probe-run.json (written by 'trawl probe').
type probeRunInfo struct {
	URL       string          `json:"url"`
	FinalURL  string          `json:"final_url"`
	Started   time.Time       `json:"started"`
	Finished  time.Time       `json:"finished"`
	UserAgent string          `json:"user_agent"`
	Chosen    int             `json:"chosen"`
	Plan      string          `json:"plan"`
	Options   map[string]any  `json:"options"`
	Summary   json.RawMessage `json:"summary"`
	Error     string          `json:"error"`
	Shot      string          `json:"form_screenshot"`
	Forms     []struct {
		Index      *int        `json:"index"`
		XPath      string      `json:"xpath"`
		Class      probe.Class `json:"class"`
		Confidence float64     `json:"confidence"`
		Action     string      `json:"action"`
		Method     string      `json:"method"`
	} `json:"forms"`
}

// alignRunInfo is what the report reads of run.json (align.WriteDir).
type alignRunInfo struct {
	KB1        string                 `json:"kb1"`
	KB2        string                 `json:"kb2"`
	Stats      align.RunStats         `json:"stats"`
	Instances  int                    `json:"instances"`
	Classes    int                    `json:"classes"`
	Iterations []align.IterationStats `json:"iterations"`
	Warnings   []string               `json:"warnings"`
	Relations  []struct {
		Sub        string  `json:"sub"`
		Super      string  `json:"super"`
		SubKB      int     `json:"sub_kb"`
		Confidence float64 `json:"confidence"`
		N          float64 `json:"n"`
	} `json:"relations"`
}

// alignmentTSV is alignment.tsv: kind, left, right, confidence per line.
type alignmentTSV struct {
	Instances, Relations, Classes []alignRow
}

type alignRow struct {
	Left, Right string
	Confidence  float64
}

// graphData is what the report keeps of graph.nt: the record class, the records'
// values and the predicates' labels.
type graphData struct {
	Triples int
	// Class is the record class (the rdfs:Class the graph declares); Source the
	// source IRI (the class IRI without its last segment).
	Class, Source string
	// Values maps a record IRI to its values by predicate IRI.
	Values map[string]map[string][]graph.Term
	// PredLabel maps a predicate IRI to its rdfs:label.
	PredLabel map[string]string
}

// enrichmentData is enrichment.nt split into asserted facts, their reifiers and the
// declarations.
type enrichmentData struct {
	Triples int
	// Facts are the asserted triples that a reifier annotates, with its confidence and
	// record; Declarations the asserted triples without one.
	Facts        []enrichFact
	Declarations []graph.Triple
}

type enrichFact struct {
	T          graph.Triple
	Confidence float64 // -1 when not given
	Record     string
}

// readRun reads the files of a run directory. It fails only when dir is not a
// directory, holds none of the run files, or ctx ends; a missing or malformed file is
// recorded in missing or bad.
func readRun(ctx context.Context, dir string) (*runData, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("trawl report: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("trawl report: %s is not a run directory", dir)
	}
	d := &runData{dir: dir, missing: map[string]bool{}, bad: map[string]error{}}
	d.readJSON(probe.FormFile, func(b []byte) error {
		var f probe.Form
		if err := decodeJSON(b, &f); err != nil {
			return err
		}
		d.form = &f
		return nil
	})
	d.readJSON(fileProbeRun, func(b []byte) error {
		var p probeRunInfo
		if err := decodeJSON(b, &p); err != nil {
			return err
		}
		d.probeRun = &p
		return nil
	})
	if d.present(probe.ProbesFile) {
		ps, err := probe.ReadProbes(dir)
		if err != nil {
			d.fail(probe.ProbesFile, err)
		} else {
			d.probes = ps
		}
	}
	d.readJSON(records.WrapperFile, func(b []byte) error {
		var w records.Wrapper
		if err := decodeJSON(b, &w); err != nil {
			return err
		}
		d.wrapper = &w
		return nil
	})
	d.readFile(records.RecordsFile, func(r io.Reader, path string) error {
		recs, err := records.ReadRecords(r, path)
		if err != nil {
			return err
		}
		d.records = recs
		return nil
	})
	d.readJSON(schema.SchemaFile, func(b []byte) error {
		var s schema.Schema
		if err := decodeJSON(b, &s); err != nil {
			return err
		}
		if s.Version != schema.FormatVersion {
			return fmt.Errorf("version %d, this trawl reads version %d", s.Version, schema.FormatVersion)
		}
		d.schema = &s
		return nil
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.readFile(rundir.GraphFile, func(r io.Reader, path string) error {
		g, err := readGraphData(ctx, r, path)
		if err != nil {
			return err
		}
		d.graph = g
		return nil
	})
	d.readFile(align.FileTSV, func(r io.Reader, path string) error {
		a, err := readAlignmentTSV(r, path)
		if err != nil {
			return err
		}
		d.alignment = a
		return nil
	})
	d.readJSON(align.FileRun, func(b []byte) error {
		var ri alignRunInfo
		if err := decodeJSON(b, &ri); err != nil {
			return err
		}
		d.alignRun = &ri
		return nil
	})
	d.readJSON(align.FileOptions, func(b []byte) error {
		var m map[string]any
		if err := decodeJSON(b, &m); err != nil {
			return err
		}
		d.alignOptions = m
		if v, ok := m["link_threshold"].(float64); ok {
			d.linkThreshold = v
		}
		return nil
	})
	d.readFile(align.FileLinks, func(r io.Reader, path string) error {
		links := map[[2]string]bool{}
		err := readTriples(ctx, r, path, func(t graph.Triple) {
			if t.P.Value == graph.OWLSameAs {
				links[[2]string{termKey(t.S), termKey(t.O)}] = true
			}
		})
		if err != nil {
			return err
		}
		d.links = links
		return nil
	})
	d.readJSON(align.FileUnderstanding, func(b []byte) error {
		var u align.Understanding
		if err := decodeJSON(b, &u); err != nil {
			return err
		}
		d.understanding = &u
		if d.linkThreshold == 0 {
			d.linkThreshold = u.LinkThreshold
		}
		return nil
	})
	d.readFile(align.FileEnrichment, func(r io.Reader, path string) error {
		e, err := readEnrichment(ctx, r, path)
		if err != nil {
			return err
		}
		d.enrichment = e
		return nil
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.markers = readMarkers(dir)
	if d.found == 0 {
		return nil, fmt.Errorf("trawl report: %s holds none of the run files (form.json, probes.jsonl, records.jsonl, schema.json, graph.nt, alignment.tsv …): is it a run directory?", dir)
	}
	return d, nil
}

// present reports whether the run file exists, and records it as missing if not.
func (d *runData) present(name string) bool {
	if _, err := os.Stat(filepath.Join(d.dir, name)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			d.missing[name] = true
		} else {
			d.fail(name, err)
		}
		return false
	}
	d.found++
	return true
}

// fail records a file that could not be read.
func (d *runData) fail(name string, err error) {
	path := filepath.Join(d.dir, name)
	if !strings.Contains(err.Error(), path) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	d.bad[name] = err
	d.errs = append(d.errs, err)
}

// readFile opens a run file and hands it to fn; errors are recorded.
func (d *runData) readFile(name string, fn func(r io.Reader, path string) error) {
	if !d.present(name) {
		return
	}
	path := filepath.Join(d.dir, name)
	f, err := os.Open(path)
	if err != nil {
		d.fail(name, err)
		return
	}
	defer func() { _ = f.Close() }()
	if err := fn(f, path); err != nil {
		d.fail(name, err)
	}
}

// readJSON reads a run file and hands its bytes to fn; errors are recorded.
func (d *runData) readJSON(name string, fn func(b []byte) error) {
	if !d.present(name) {
		return
	}
	b, err := os.ReadFile(filepath.Join(d.dir, name))
	if err != nil {
		d.fail(name, err)
		return
	}
	if err := fn(b); err != nil {
		d.fail(name, err)
	}
}

// decodeJSON decodes one JSON value; a syntax or type error names its line and column.
func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return errors.New("more than one JSON value")
		}
		return nil
	}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.Is(err, io.EOF):
		return errors.New("empty file")
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, _ := lineCol(b, int64(len(b)))
		return fmt.Errorf("line %d: the file ends inside a JSON value (truncated?)", line)
	}
	if off < 0 {
		return err
	}
	line, col := lineCol(b, off)
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// readTriples reads N-Triples, stopping at the first bad line (a *graph.ParseError).
func readTriples(ctx context.Context, r io.Reader, path string, fn func(graph.Triple)) error {
	rd := graph.NewReader(r, path)
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t, err := rd.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fn(t)
	}
}

// termKey identifies a term as alignment.tsv writes it: an IRI bare, a blank node as
// _:label, anything else in N-Triples form.
func termKey(t graph.Term) string {
	switch t.Kind {
	case graph.KindIRI:
		return t.Value
	case graph.KindBlank:
		return "_:" + t.Value
	}
	return t.String()
}

// readGraphData reads graph.nt.
func readGraphData(ctx context.Context, r io.Reader, path string) (*graphData, error) {
	g := &graphData{Values: map[string]map[string][]graph.Term{}, PredLabel: map[string]string{}}
	types := map[string][]string{}
	var classes []string
	var rest []graph.Triple
	err := readTriples(ctx, r, path, func(t graph.Triple) {
		g.Triples++
		switch {
		case t.P.Value == graph.RDFType && t.O.Value == graph.RDFSClass && t.S.IsIRI():
			classes = append(classes, t.S.Value)
		case t.P.Value == graph.RDFType && t.O.IsIRI():
			types[termKey(t.S)] = append(types[termKey(t.S)], t.O.Value)
		default:
			rest = append(rest, t)
		}
	})
	if err != nil {
		return nil, err
	}
	// The record class: the one the labeled graph mints ({source}/Record), else the
	// first class declared.
	slices.Sort(classes)
	for _, c := range classes {
		if strings.HasSuffix(c, "/Record") {
			g.Class = c
			break
		}
	}
	if g.Class == "" && len(classes) > 0 {
		g.Class = classes[0]
	}
	if i := strings.LastIndexByte(g.Class, '/'); i > 0 {
		g.Source = g.Class[:i]
	}
	for s, cs := range types {
		if g.Class != "" && slices.Contains(cs, g.Class) {
			g.Values[s] = map[string][]graph.Term{}
		}
	}
	for _, t := range rest {
		if vals, ok := g.Values[termKey(t.S)]; ok {
			vals[t.P.Value] = append(vals[t.P.Value], t.O)
			continue
		}
		if t.P.Value == graph.RDFSLabel && t.O.IsLiteral() && t.S.IsIRI() {
			g.PredLabel[t.S.Value] = t.O.Value
		}
	}
	return g, nil
}

// readAlignmentTSV reads alignment.tsv (align.WriteTSV).
func readAlignmentTSV(r io.Reader, path string) (*alignmentTSV, error) {
	a := &alignmentTSV{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 16<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if ln == 1 && strings.HasPrefix(line, "kind\t") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields (kind, left, right, confidence), got %d", path, ln, len(f))
		}
		c, err := strconv.ParseFloat(f[3], 64)
		if err != nil || c < 0 || c > 1 {
			return nil, fmt.Errorf("%s:%d: confidence %q is not a number in [0, 1]", path, ln, f[3])
		}
		row := alignRow{Left: f[1], Right: f[2], Confidence: c}
		switch f[0] {
		case "instance":
			a.Instances = append(a.Instances, row)
		case "relation":
			a.Relations = append(a.Relations, row)
		case "class":
			a.Classes = append(a.Classes, row)
		default:
			return nil, fmt.Errorf("%s:%d: unknown kind %q (want instance, relation or class)", path, ln, f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// readEnrichment reads enrichment.nt: the asserted facts, with the confidence and the
// record of their reifier (RDF 1.2 rdf:reifies or RDF 1.1 rdf:Statement), and the
// declarations.
func readEnrichment(ctx context.Context, r io.Reader, path string) (*enrichmentData, error) {
	const (
		reifies   = graph.RDF + "reifies"
		statement = graph.RDF + "Statement"
		derived   = "http://www.w3.org/ns/prov#wasDerivedFrom"
	)
	e := &enrichmentData{}
	var all []graph.Triple
	reified := map[string]graph.Triple{} // reifier → triple
	parts := map[string]*graph.Triple{}  // RDF 1.1 statements being assembled
	conf := map[string]float64{}
	record := map[string]string{}
	err := readTriples(ctx, r, path, func(t graph.Triple) {
		e.Triples++
		all = append(all, t)
		s := termKey(t.S)
		switch t.P.Value {
		case reifies:
			if tt, err := t.O.Triple(); err == nil {
				reified[s] = tt
			}
		case graph.RDFType:
			if t.O.Value == statement {
				if parts[s] == nil {
					parts[s] = &graph.Triple{}
				}
			}
		case graph.RDF + "subject", graph.RDF + "predicate", graph.RDF + "object":
			if parts[s] == nil {
				parts[s] = &graph.Triple{}
			}
			switch t.P.Value {
			case graph.RDF + "subject":
				parts[s].S = t.O
			case graph.RDF + "predicate":
				parts[s].P = t.O
			default:
				parts[s].O = t.O
			}
		}
		if t.O.IsLiteral() && (strings.HasSuffix(t.P.Value, "#confidence") || strings.HasSuffix(t.P.Value, "/confidence")) {
			if c, err := strconv.ParseFloat(t.O.Value, 64); err == nil {
				conf[s] = c
			}
		}
		if t.P.Value == derived {
			record[s] = termKey(t.O)
		}
	})
	if err != nil {
		return nil, err
	}
	for s, p := range parts {
		if !p.S.IsZero() && !p.P.IsZero() && !p.O.IsZero() {
			reified[s] = *p
		}
	}
	byTriple := map[graph.Triple][]string{}
	for s, t := range reified {
		byTriple[t] = append(byTriple[t], s)
	}
	for _, t := range all {
		s := termKey(t.S)
		if _, isReifier := reified[s]; isReifier || parts[s] != nil || t.P.Value == reifies {
			continue
		}
		rs := byTriple[t]
		if len(rs) == 0 {
			e.Declarations = append(e.Declarations, t)
			continue
		}
		slices.Sort(rs)
		for _, r := range rs {
			c, ok := conf[r]
			if !ok {
				c = -1
			}
			e.Facts = append(e.Facts, enrichFact{T: t, Confidence: c, Record: record[r]})
		}
	}
	return e, nil
}

// readMarkers reads the stage markers .trawl/<stage>.done; torn markers are ignored
// (the stage counts as not done, as runStages treats it).
func readMarkers(dir string) []stageMarker {
	ents, err := os.ReadDir(filepath.Join(dir, markerDir))
	if err != nil {
		return nil
	}
	var out []stageMarker
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".done") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, markerDir, e.Name()))
		if err != nil {
			continue
		}
		var m stageMarker
		if json.Unmarshal(b, &m) == nil && m.Stage != "" {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b stageMarker) int { return a.Finished.Compare(b.Finished) })
	return out
}
