package align

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// Result is the outcome of Align.
type Result struct {
	// Options are the effective options of the run.
	Options Options `json:"options"`
	// Instances are the kept 1:1 pairs with a confidence ≥ Theta, sorted by KB1 term.
	Instances []InstanceMatch `json:"-"`
	// Relations are the relation subsumptions ≥ Theta in both directions, joins
	// included, sorted by direction, subrelation and decreasing confidence.
	Relations []RelationMatch `json:"-"`
	// Classes are the class subsumptions ≥ Theta in both directions.
	Classes []ClassMatch `json:"-"`
	// Iterations reports what each iteration changed.
	Iterations []IterationStats `json:"iterations"`
	Stats      RunStats         `json:"stats"`
	// Warnings are conditions a user should know about (nothing matched, hubs skipped).
	Warnings []string `json:"warnings,omitempty"`

	work workCounts // for the scaling benchmark
	// partnerJumps counts the KB1 nodes, in local order, whose partner lies more than
	// farJump local indices from the previous one's in KB2's view (TestKB2Renumbered).
	partnerJumps int
}

// InstanceMatch is an equality between a KB1 entity and a KB2 entity.
type InstanceMatch struct {
	Left, Right         graph.ID
	LeftTerm, RightTerm graph.Term
	Confidence          float64
	// Support is the number of distinct relations of the KB1 entity whose values
	// supported the pair in the last iteration, counted up to two; Comparable the number
	// of its relations with a value that has a counterpart in KB2, up to two.
	Support, Comparable int
}

// Linked reports whether m is an owl:sameAs link under o: its confidence is at least
// o.LinkThreshold and, with o.Corroboration, it is supported by two relations of the KB1
// entity whenever the entity has two with counterparts (a title alone does not make a
// film record the book of the same title when its year could have agreed and did not).
func (m InstanceMatch) Linked(o Options) bool {
	if m.Confidence < o.LinkThreshold || m.LeftTerm.IsLiteral() || m.RightTerm.IsLiteral() {
		return false
	}
	return !o.Corroboration || m.Support >= min(2, m.Comparable)
}

// RelationMatch is a relation subsumption between a path of KB1 and a path of KB2.
type RelationMatch struct {
	// SubKB is 1 for Pr(Left ⊆ Right) and 2 for Pr(Right ⊆ Left).
	SubKB int
	// Left is the KB1 path and Right the KB2 path, whatever the direction.
	Left, Right Path
	// LeftName and RightName are the paths in alignment.tsv notation (PathName).
	LeftName, RightName string
	// Confidence is the damped subsumption score (score + SmoothNumerator) /
	// (N + SmoothDenominator).
	Confidence float64
	// N is the normaliser behind the score: the (weighted) number of facts of the
	// subrelation whose two arguments have a counterpart in the other KB.
	N float64
}

// Sub returns the name of the subrelation.
func (m RelationMatch) Sub() string {
	if m.SubKB == 1 {
		return m.LeftName
	}
	return m.RightName
}

// Super returns the name of the superrelation.
func (m RelationMatch) Super() string {
	if m.SubKB == 1 {
		return m.RightName
	}
	return m.LeftName
}

// fillResult turns the final state into Instances and Relations.
func (a *aligner) fillResult(ctx context.Context, res *Result) error {
	for _, i := range a.tgt {
		m := a.eq1[i]
		if m.node < 0 || m.score < a.opts.Theta {
			continue
		}
		l, r := a.v1.ids[i], a.v2.ids[m.node]
		lt, err := a.v1.kb.Term(ctx, l)
		if err != nil {
			return err
		}
		rt, err := a.v2.kb.Term(ctx, r)
		if err != nil {
			return err
		}
		res.Instances = append(res.Instances, InstanceMatch{Left: l, Right: r, LeftTerm: lt, RightTerm: rt, Confidence: m.score,
			Support: int(m.support), Comparable: int(m.comparable)})
	}
	// Sort by the N-Triples forms, computed once per pair rather than per comparison.
	type keyed struct {
		l, r string
		m    InstanceMatch
	}
	ks := make([]keyed, len(res.Instances))
	for i, m := range res.Instances {
		ks[i] = keyed{m.LeftTerm.String(), m.RightTerm.String(), m}
	}
	slices.SortFunc(ks, func(x, y keyed) int { return cmp.Or(cmp.Compare(x.l, y.l), cmp.Compare(x.r, y.r)) })
	for i, k := range ks {
		res.Instances[i] = k.m
	}
	for k, e := range a.rels.pairs {
		base := RelationMatch{Left: k.p1, Right: k.p2, LeftName: PathName(a.v1.kb, k.p1), RightName: PathName(a.v2.kb, k.p2)}
		if e.s12 >= a.opts.Theta {
			m := base
			m.SubKB, m.Confidence, m.N = 1, e.s12, a.rels.n1[k.p1]
			res.Relations = append(res.Relations, m)
		}
		if e.s21 >= a.opts.Theta {
			m := base
			m.SubKB, m.Confidence, m.N = 2, e.s21, a.rels.n2[k.p2]
			res.Relations = append(res.Relations, m)
		}
	}
	sortRelations(res.Relations)
	return nil
}

func sortRelations(rs []RelationMatch) {
	slices.SortFunc(rs, func(x, y RelationMatch) int {
		return cmp.Or(cmp.Compare(x.SubKB, y.SubKB), cmp.Compare(x.Sub(), y.Sub()),
			cmp.Compare(y.Confidence, x.Confidence), cmp.Compare(x.Super(), y.Super()))
	})
}

// termText writes a node as alignment.tsv does: an IRI bare, a blank node as _:label,
// anything else in N-Triples form.
func termText(t graph.Term) string {
	switch t.Kind {
	case graph.KindIRI:
		return t.Value
	case graph.KindBlank:
		return "_:" + t.Value
	}
	return t.String()
}

func conf(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

// WriteTSV writes the alignment as tab-separated lines "kind left right confidence"
// after a header line. kind is instance, relation or class. Instance lines have the KB1
// entity left and the KB2 entity right. Relation and class lines read "left ⊆ right"
// (PARIS's superrelation files): the KB1⊆KB2 direction comes first, then the KB2⊆KB1
// direction, where left is the KB2 item. A join is written as its relation IRIs joined
// by " / ", an inverse relation with a trailing "-".
func WriteTSV(w io.Writer, res *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "kind\tleft\tright\tconfidence")
	for _, m := range res.Instances {
		fmt.Fprintf(bw, "instance\t%s\t%s\t%s\n", termText(m.LeftTerm), termText(m.RightTerm), conf(m.Confidence))
	}
	for _, m := range res.Relations {
		fmt.Fprintf(bw, "relation\t%s\t%s\t%s\n", m.Sub(), m.Super(), conf(m.Confidence))
	}
	for _, m := range res.Classes {
		sub, super := termText(m.LeftTerm), termText(m.RightTerm)
		if m.SubKB == 2 {
			sub, super = super, sub
		}
		fmt.Fprintf(bw, "class\t%s\t%s\t%s\n", sub, super, conf(m.Confidence))
	}
	return bw.Flush()
}

// AlignmentNS is the namespace of the OAEI Alignment format.
const AlignmentNS = "http://knowledgeweb.semanticweb.org/heterogeneity/alignment#"

// WriteRDF writes the alignment in the OAEI Alignment format (Alignment API RDF/XML,
// level 0, type ??, the multiplicity of a partial 1:1 matching). entity1 is always the
// KB1 item. Instances are "=" cells; relation and class subsumptions are "<" cells
// (entity1 ⊆ entity2) or ">" cells (entity2 ⊆ entity1). Level 0 names plain entities
// only, so joins, pairs of a relation with an inverse relation, and blank nodes are
// left out (they are in alignment.tsv); a pair of two inverse relations is written as
// the pair of their forward relations, with the higher confidence of the two.
// onto1 and onto2 name the two KBs (for example their file names).
func WriteRDF(w io.Writer, res *Result, onto1, onto2 string) error {
	bw := bufio.NewWriter(w)
	esc := func(s string) string {
		var b bytes.Buffer
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF xmlns="%s"
         xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:xsd="http://www.w3.org/2001/XMLSchema#">
<Alignment>
  <xml>yes</xml>
  <level>0</level>
  <type>??</type>
  <onto1><Ontology><location>%s</location></Ontology></onto1>
  <onto2><Ontology><location>%s</location></Ontology></onto2>
`, AlignmentNS, esc(onto1), esc(onto2))
	cell := func(e1, e2, rel string, c float64) {
		fmt.Fprintf(bw, `  <map>
    <Cell>
      <entity1 rdf:resource="%s"/>
      <entity2 rdf:resource="%s"/>
      <relation>%s</relation>
      <measure rdf:datatype="http://www.w3.org/2001/XMLSchema#float">%s</measure>
    </Cell>
  </map>
`, esc(e1), esc(e2), esc(rel), conf(c))
	}
	for _, m := range res.Instances {
		if m.LeftTerm.IsIRI() && m.RightTerm.IsIRI() {
			cell(m.LeftTerm.Value, m.RightTerm.Value, "=", m.Confidence)
		}
	}
	type relCell struct {
		l, r string
		sub  int
	}
	best := map[relCell]float64{}
	var order []relCell
	for _, m := range res.Relations {
		if m.Left.IsJoin() || m.Right.IsJoin() || m.Left.Step(0).IsInverse() != m.Right.Step(0).IsInverse() {
			continue
		}
		k := relCell{m.LeftName, m.RightName, m.SubKB}
		if m.Left.Step(0).IsInverse() {
			k.l, k.r = m.LeftName[:len(m.LeftName)-1], m.RightName[:len(m.RightName)-1]
		}
		if old, ok := best[k]; !ok {
			order = append(order, k)
			best[k] = m.Confidence
		} else if m.Confidence > old {
			best[k] = m.Confidence
		}
	}
	slices.SortFunc(order, func(x, y relCell) int {
		return cmp.Or(cmp.Compare(x.sub, y.sub), cmp.Compare(x.l, y.l), cmp.Compare(x.r, y.r))
	})
	for _, k := range order {
		cell(k.l, k.r, map[int]string{1: "<", 2: ">"}[k.sub], best[k])
	}
	for _, m := range res.Classes {
		if m.LeftTerm.IsIRI() && m.RightTerm.IsIRI() {
			cell(m.LeftTerm.Value, m.RightTerm.Value, map[int]string{1: "<", 2: ">"}[m.SubKB], m.Confidence)
		}
	}
	fmt.Fprint(bw, "</Alignment>\n</rdf:RDF>\n")
	return bw.Flush()
}

// WriteLinks writes an owl:sameAs triple for every instance pair that is Linked under
// res.Options with the given link threshold, as sorted canonical N-Triples.
func WriteLinks(w io.Writer, res *Result, threshold float64) error {
	var ts []graph.Triple
	o := res.Options
	o.LinkThreshold = threshold
	for _, m := range res.Instances {
		if m.Linked(o) {
			ts = append(ts, graph.Triple{S: m.LeftTerm, P: graph.NewIRI(graph.OWLSameAs), O: m.RightTerm})
		}
	}
	return graph.WriteSorted(w, ts)
}

// The files WriteDir writes.
const (
	FileTSV     = "alignment.tsv"
	FileRDF     = "alignment.rdf"
	FileLinks   = "links.nt"
	FileOptions = "options.json"
	FileRun     = "run.json"
)

// RunInfo names the inputs of a run, for the files of the output directory.
type RunInfo struct {
	KB1 string `json:"kb1"`
	KB2 string `json:"kb2"`
}

// WriteDir writes alignment.tsv, alignment.rdf, links.nt (owl:sameAs at
// Options.LinkThreshold), options.json (the effective options) and run.json (inputs,
// statistics, per-iteration changes, warnings, and the relation table with the n behind
// each score) into dir, creating it if needed. Each file is written atomically
// (rundir.WriteFile), so a failed run leaves earlier files intact.
func WriteDir(dir string, res *Result, info RunInfo) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{FileTSV, func(w io.Writer) error { return WriteTSV(w, res) }},
		{FileRDF, func(w io.Writer) error { return WriteRDF(w, res, info.KB1, info.KB2) }},
		{FileLinks, func(w io.Writer) error { return WriteLinks(w, res, res.Options.LinkThreshold) }},
		{FileOptions, func(w io.Writer) error { return WriteOptions(w, res.Options) }},
		{FileRun, func(w io.Writer) error { return writeRun(w, res, info) }},
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return fmt.Errorf("write %s: %w", f.name, err)
		}
		if err := rundir.WriteFile(filepath.Join(dir, f.name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// relationRow is a relation subsumption in run.json.
type relationRow struct {
	Sub        string  `json:"sub"`
	Super      string  `json:"super"`
	SubKB      int     `json:"sub_kb"`
	Confidence float64 `json:"confidence"`
	N          float64 `json:"n"`
}

func writeRun(w io.Writer, res *Result, info RunInfo) error {
	rows := make([]relationRow, 0, len(res.Relations))
	for _, m := range res.Relations {
		rows = append(rows, relationRow{Sub: m.Sub(), Super: m.Super(), SubKB: m.SubKB, Confidence: round6(m.Confidence), N: round6(m.N)})
	}
	iters := slices.Clone(res.Iterations)
	for k := range iters {
		iters[k].Elapsed = 0 // run.json must not depend on the machine's speed
		iters[k].MaxDelta = round6(iters[k].MaxDelta)
	}
	out := struct {
		RunInfo
		Stats      RunStats         `json:"stats"`
		Instances  int              `json:"instances"`
		Relations  []relationRow    `json:"relations"`
		Classes    int              `json:"classes"`
		Iterations []IterationStats `json:"iterations"`
		Warnings   []string         `json:"warnings,omitempty"`
	}{info, res.Stats, len(res.Instances), rows, len(res.Classes), iters, res.Warnings}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func round6(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return v
}
