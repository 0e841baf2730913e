package report

import (
	"bufio"
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
// that does not, which command writes it.
const (
	byProbe   = "trawl probe URL --out DIR"
	byExtract = "trawl extract RUN_DIR"
	bySchema  = "trawl schema RUN_DIR"
	byGraph   = "trawl graph RUN_DIR"
	byAlign   = "trawl align RUN_DIR [--kb KB]"
)

// producedBy names the command that writes each run file.
var producedBy = map[string]string{
	rundir.FormFile:          byProbe,
	rundir.ProbesFile:        byProbe,
	rundir.PagesDir:          byProbe,
	rundir.ProbeRunFile:      byProbe,
	rundir.FormPNG:           byProbe + " (with screenshots)",
	rundir.WrapperFile:       byExtract,
	rundir.RecordsFile:       byExtract,
	rundir.SchemaFile:        bySchema,
	rundir.GraphFile:         byGraph,
	rundir.AlignmentTSV:      byAlign,
	rundir.AlignmentRDF:      byAlign,
	rundir.LinksFile:         byAlign,
	rundir.AlignOptionsFile:  byAlign,
	rundir.AlignRunFile:      byAlign,
	rundir.UnderstandingFile: byAlign,
	rundir.EnrichmentFile:    byAlign,
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
	markers       []rundir.Marker
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
		return nil, fmt.Errorf("report: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("report: %s is not a run directory", dir)
	}
	d := &runData{dir: dir, missing: map[string]bool{}, bad: map[string]error{}}
	d.readProbing()
	d.readExtraction()
	d.readSchema()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.readGraph(ctx)
	d.readAlignment(ctx)
	d.readEnrichment(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.markers = rundir.ReadMarkers(dir)
	if d.found == 0 {
		return nil, fmt.Errorf("report: %s holds none of the run files (form.json, probes.jsonl, records.jsonl, schema.json, graph.nt, alignment.tsv …): is it a run directory?", dir)
	}
	return d, nil
}

// readProbing reads what the probe stage wrote: form.json, probe-run.json and
// probes.jsonl.
func (d *runData) readProbing() {
	d.form = readJSON[probe.Form](d, rundir.FormFile)
	d.probeRun = readJSON[probeRunInfo](d, rundir.ProbeRunFile)
	if d.present(rundir.ProbesFile) {
		if ps, err := rundir.ReadProbes(d.dir); err != nil {
			d.fail(rundir.ProbesFile, err)
		} else {
			d.probes = ps
		}
	}
}

// readExtraction reads what FOREST wrote: wrapper.json and records.jsonl.
func (d *runData) readExtraction() {
	d.wrapper = readJSON[records.Wrapper](d, rundir.WrapperFile)
	if d.present(rundir.RecordsFile) {
		if recs, err := rundir.ReadJSONL[records.Record](filepath.Join(d.dir, rundir.RecordsFile)); err != nil {
			d.fail(rundir.RecordsFile, err)
		} else {
			d.records = recs
		}
	}
}

// readSchema reads schema.json.
func (d *runData) readSchema() {
	if !d.present(rundir.SchemaFile) {
		return
	}
	s, err := schema.Load(filepath.Join(d.dir, rundir.SchemaFile))
	if err != nil {
		d.fail(rundir.SchemaFile, err)
		return
	}
	d.schema = s
}

// readGraph reads graph.nt.
func (d *runData) readGraph(ctx context.Context) {
	d.readFile(rundir.GraphFile, func(r io.Reader, path string) error {
		g, err := readGraphData(ctx, r, path)
		d.graph = g
		return err
	})
}

// readAlignment reads what the aligner wrote: alignment.tsv, run.json, options.json
// and links.nt.
func (d *runData) readAlignment(ctx context.Context) {
	d.readFile(rundir.AlignmentTSV, func(r io.Reader, path string) error {
		a, err := readAlignmentTSV(r, path)
		d.alignment = a
		return err
	})
	d.alignRun = readJSON[alignRunInfo](d, rundir.AlignRunFile)
	if m := readJSON[map[string]any](d, rundir.AlignOptionsFile); m != nil {
		d.alignOptions = *m
		if v, ok := (*m)["link_threshold"].(float64); ok {
			d.linkThreshold = v
		}
	}
	d.readFile(rundir.LinksFile, func(r io.Reader, path string) error {
		links := map[[2]string]bool{}
		err := readTriples(ctx, r, path, func(t graph.Triple) {
			if t.P.Value == graph.OWLSameAs {
				links[[2]string{termKey(t.S), termKey(t.O)}] = true
			}
		})
		if err == nil {
			d.links = links
		}
		return err
	})
}

// readEnrichment reads understanding.json and enrichment.nt.
func (d *runData) readEnrichment(ctx context.Context) {
	d.understanding = readJSON[align.Understanding](d, rundir.UnderstandingFile)
	if u := d.understanding; u != nil && d.linkThreshold == 0 {
		d.linkThreshold = u.LinkThreshold
	}
	d.readFile(rundir.EnrichmentFile, func(r io.Reader, path string) error {
		e, err := readEnrichment(ctx, r, path)
		d.enrichment = e
		return err
	})
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

// readJSON decodes a JSON run file; nil when it is missing or bad (recorded).
func readJSON[T any](d *runData, name string) *T {
	if !d.present(name) {
		return nil
	}
	v := new(T)
	if err := rundir.ReadJSON(filepath.Join(d.dir, name), v); err != nil {
		d.fail(name, err)
		return nil
	}
	return v
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
