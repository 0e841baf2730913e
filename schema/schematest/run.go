package schematest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
)

// Probe is one planned submission.
type Probe struct {
	Kind   string
	Values map[string]string
}

// Plan returns an agnostic probe plan for the site, as the prober would run it: a
// nonsense word, stop words, a letter, each option of the format select, and a few
// terms harvested from earlier result pages.
func (s *Site) Plan() []Probe {
	kw := "q"
	if s.Layout == Calibre {
		kw = "search"
	}
	p := []Probe{
		{"nonsense", map[string]string{kw: "qzxvbwtrkl"}},
		{"stopword", map[string]string{kw: "the"}},
		{"stopword", map[string]string{kw: "of"}},
		{"stopword", map[string]string{kw: "and"}},
		{"letter", map[string]string{kw: "a"}},
	}
	if s.Layout != Calibre {
		p = append(p, Probe{"option", map[string]string{"format": "pb"}}, Probe{"option", map[string]string{"format": "hc"}})
	} else {
		p = append(p, Probe{"empty", map[string]string{kw: ""}})
	}
	for _, t := range []string{"dickens", "harry", "war", "king", "dostoevsky", "austen", "world", "brave new world"} {
		p = append(p, Probe{"term", map[string]string{kw: t}})
	}
	return p
}

// Run is a run directory written by WriteRun.
type Run struct {
	Dir string
	// Books[i] is the book of the i-th record of records.jsonl.
	Books []Book
	Form  rundir.Form
}

// T0 is the start time of the first probe of a fixture run.
var T0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// WriteRun probes the site with the plan and writes a run directory as the prober and
// the record isolator would: form.json, probes.jsonl, pages/NNNN-1.html and
// records.jsonl.
func (s *Site) WriteRun(dir string, plan []Probe, positions bool) (*Run, error) {
	if err := os.MkdirAll(filepath.Join(dir, "pages"), 0o755); err != nil {
		return nil, err
	}
	run := &Run{Dir: dir, Form: s.Form()}
	form, err := json.MarshalIndent(run.Form, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "form.json"), append(form, '\n'), 0o644); err != nil {
		return nil, err
	}
	var probes, recs strings.Builder
	for i, pl := range plan {
		n := i + 1
		page := s.Page(pl.Values)
		file := fmt.Sprintf("pages/%04d-1.html", n)
		if err := os.WriteFile(filepath.Join(dir, file), page, 0o644); err != nil {
			return nil, err
		}
		u := s.SearchURL(pl.Values)
		var terms []string
		for k, v := range pl.Values {
			if k == "q" || k == "search" || k == "author" || k == "isbn" || k == "note" || k == "from" {
				if v != "" {
					terms = append(terms, v)
				}
			}
		}
		p := rundir.Probe{
			N: n, Kind: pl.Kind, Assignment: pl.Values, Terms: terms, URL: u, Status: 200,
			Trigger: "submit", Navigated: true,
			Pages:   []rundir.PageRef{{File: file, URL: u, Status: 200, Bytes: len(page)}},
			Started: T0.Add(time.Duration(i) * 2 * time.Second), Duration: 150 * time.Millisecond,
		}
		line, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		probes.Write(line)
		probes.WriteByte('\n')
		rs, err := Records(page, file, u, s.RecordXPath(), positions)
		if err != nil {
			return nil, err
		}
		books := s.Search(pl.Values)
		for k, r := range rs {
			line, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			recs.Write(line)
			recs.WriteByte('\n')
			run.Books = append(run.Books, books[k])
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "probes.jsonl"), []byte(probes.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), []byte(recs.String()), 0o644); err != nil {
		return nil, err
	}
	return run, nil
}

// Attribute is a true attribute of a fixture site: its name and its value in a record
// ("" when the record does not show it).
type Attribute struct {
	Name  string
	Value func(Book) string
	// Filters lists the text fields of the form that filter on this attribute; Selects
	// the selects whose options are its values.
	Filters []string
	Selects []string
}

// Truth returns the true attributes of the site's records, as shown on its pages (the
// text the records show; links and images are not attributes).
func (s *Site) Truth() []Attribute {
	switch s.Layout {
	case Table:
		return []Attribute{
			{"title", func(b Book) string { return b.Title }, []string{"q"}, nil},
			{"author", s.AuthorList, []string{"q", "author"}, nil},
			{"year", func(b Book) string { return strconv.Itoa(b.Year) }, []string{"from"}, nil},
			{"format", func(b Book) string { return b.Format }, nil, []string{"format"}},
			{"isbn", Book.ISBNHyphenated, []string{"isbn"}, nil},
			{"price", func(b Book) string { return fmt.Sprintf("$%.2f", b.Price) }, nil, nil},
		}
	case List:
		return []Attribute{
			{"title", func(b Book) string { return b.Title }, []string{"q"}, nil},
			{"series", func(b Book) string {
				if b.Series == "" {
					return ""
				}
				return fmt.Sprintf("(%s #%s)", b.Series, strconv.FormatFloat(b.SeriesIndex, 'f', -1, 64))
			}, nil, nil},
			{"author", s.AuthorList, []string{"q", "author"}, nil},
			{"year", func(b Book) string { return strconv.Itoa(b.Year) }, []string{"from"}, nil},
			{"format", func(b Book) string { return b.Format }, nil, []string{"format"}},
			{"isbn", Book.isbn13, []string{"isbn"}, nil},
			{"price", func(b Book) string { return strings.Replace(fmt.Sprintf("%.2f", b.Price), ".", ",", 1) + "\u00a0€" }, nil, nil},
		}
	}
	return []Attribute{
		{"title", func(b Book) string { return b.Title }, []string{"search"}, nil},
		{"series", func(b Book) string { return b.Series }, []string{"search"}, nil},
		{"series_index", func(b Book) string {
			if b.Series == "" {
				return ""
			}
			return fmt.Sprintf("%.1f", b.SeriesIndex)
		}, nil, nil},
		{"authors", s.AuthorList, []string{"search"}, nil},
		{"date", func(b Book) string { return fmt.Sprintf("02 Jan, %d", b.Year) }, nil, nil},
		{"tags", func(b Book) string { return strings.Join(b.Tags, ", ") }, []string{"search"}, nil},
	}
}

// ReadRecords is a convenience for tests: the records of records.jsonl in dir.
func ReadRecords(dir string) ([]records.Record, error) {
	return rundir.ReadJSONL[records.Record](filepath.Join(dir, rundir.RecordsFile))
}

// ReadInput reads the schema stage's inputs from a run directory as the pipeline does:
// records.jsonl, form.json and probes.jsonl (the last two may be missing), with the
// saved pages read under the run directory's path rule.
func ReadInput(dir string) ([]records.Record, schema.Input, error) {
	recs, err := rundir.ReadJSONL[records.Record](filepath.Join(dir, rundir.RecordsFile))
	if err != nil {
		return nil, schema.Input{}, err
	}
	in := schema.Input{Page: func(name string) ([]byte, error) { return rundir.ReadPage(dir, name) }}
	if f, err := rundir.ReadForm(dir); err == nil {
		in.Form = &f
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, in, err
	}
	if in.Probes, err = rundir.ReadProbes(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, in, err
	}
	return recs, in, nil
}

// RunDir is the schema stage on a run directory written by WriteRun: ReadInput, then
// schema.Run with sub as the re-submitter.
func RunDir(ctx context.Context, dir string, sub schema.Submitter, o schema.Options) (*schema.Schema, error) {
	recs, in, err := ReadInput(dir)
	if err != nil {
		return nil, err
	}
	in.Submitter = sub
	return schema.Run(ctx, dir, recs, in, o)
}
