package bookkb

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/graph"
)

// RunScore is the quality of the owl:sameAs links of a trawl run on the calibre site.
type RunScore struct {
	// Records is the number of records in graph.nt; Known how many of them Match finds
	// in the site's catalogue; InKB how many of those stand for a work the KB has.
	Records, Known, InKB int
	// Links is the number of links of known records; Correct how many go to the
	// record's work; Wrong the others, of which NotInKB are links of records whose work
	// the KB does not have, and ToOtherClass links to an entity that is not a schema:Book.
	Links, Correct, Wrong, NotInKB, ToOtherClass int
	// Duplicates counts works the KB has that several linked records stand for.
	Duplicates int
	Precision  float64
	Recall     float64
	// Errors lists up to 20 wrong links and missed works.
	Errors []string
}

func (s RunScore) String() string {
	return fmt.Sprintf("P %.3f R %.3f: %d records (%d found in the catalogue, %d of works in the KB), %d links, %d wrong (%d of records not in the KB, %d to other classes)",
		s.Precision, s.Recall, s.Records, s.Known, s.InKB, s.Links, s.Wrong, s.NotInKB, s.ToOtherClass)
}

// RecordValues reads the records of a run's graph.nt: record IRI → its literal values.
// Records are the subjects typed with the source's record class (an IRI ending in
// "/Record").
func RecordValues(graphFile string) (map[string][]string, error) {
	vals := map[string][]string{}
	isRec := map[string]bool{}
	err := eachTriple(graphFile, func(t graph.Triple) {
		switch {
		case t.P.Value == graph.RDFType && strings.HasSuffix(t.O.Value, "/Record"):
			isRec[t.S.Value] = true
		case t.O.IsLiteral():
			vals[t.S.Value] = append(vals[t.S.Value], t.O.Value)
		}
	})
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for r := range isRec {
		out[r] = vals[r]
	}
	return out, nil
}

// ReadLinks reads an owl:sameAs file: subject → objects.
func ReadLinks(file string) (map[string][]string, error) {
	out := map[string][]string{}
	err := eachTriple(file, func(t graph.Triple) {
		if t.P.Value == graph.OWLSameAs {
			out[t.S.Value] = append(out[t.S.Value], t.O.Value)
		}
	})
	return out, err
}

// eachTriple calls fn with every triple of an N-Triples file.
func eachTriple(file string, fn func(graph.Triple)) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only
	rd := graph.NewReader(f, file)
	for {
		t, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		fn(t)
	}
}

// EvalRun scores the links.nt of the run in dir against the gold: a record stands for
// the site books Match finds for its values; a link is correct when it goes to the work
// of one of them.
func (kb *KB) EvalRun(dir string) (RunScore, error) {
	var s RunScore
	recs, err := RecordValues(filepath.Join(dir, "graph.nt"))
	if err != nil {
		return s, err
	}
	links, err := ReadLinks(filepath.Join(dir, "links.nt"))
	if err != nil {
		return s, err
	}
	class := map[string]string{}
	for _, t := range kb.Triples {
		if t.P.Value == graph.RDFType {
			class[t.S.Value] = t.O.Value
		}
	}
	ids := make([]string, 0, len(recs))
	for r := range recs {
		ids = append(ids, r)
	}
	slices.Sort(ids)
	linkedWorks := map[string]int{}
	for _, r := range ids {
		s.Records++
		books := kb.Match(recs[r])
		if len(books) == 0 {
			continue
		}
		s.Known++
		var works []string
		for _, i := range books {
			works = append(works, kb.Books[i].Work)
		}
		inKB := slices.ContainsFunc(works, func(w string) bool { return w != "" })
		if inKB {
			s.InKB++
		}
		got := links[r]
		for _, l := range got {
			s.Links++
			if slices.Contains(works, l) {
				s.Correct++
				linkedWorks[l]++
				continue
			}
			s.Wrong++
			if !inKB {
				s.NotInKB++
			}
			if class[l] != Schema+"Book" {
				s.ToOtherClass++
			}
			if len(s.Errors) < 20 {
				s.Errors = append(s.Errors, fmt.Sprintf("wrong: %q → %s (want %v)", recs[r], l, works))
			}
		}
		if inKB && len(got) == 0 && len(s.Errors) < 20 {
			s.Errors = append(s.Errors, fmt.Sprintf("missed: %q (want %v)", recs[r], works))
		}
	}
	for _, n := range linkedWorks {
		if n > 1 {
			s.Duplicates++
		}
	}
	if s.Links > 0 {
		s.Precision = float64(s.Correct) / float64(s.Links)
	}
	if s.InKB > 0 {
		s.Recall = float64(min(s.Correct, s.InKB)) / float64(s.InKB)
	}
	return s, nil
}
