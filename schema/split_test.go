package schema

import (
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/records"
)

func TestApplySplit(t *testing.T) {
	brackets := Marker{Atom: atomBrackets}
	date := Marker{Atom: atomDate}
	by := Marker{Sep: "by"}
	tags := Marker{Sep: "Tags="}
	tests := []struct {
		name    string
		value   string
		markers []Marker
		want    []segment
	}{
		{"calibre first line with series", "The Hunger Games [The Hunger Games - 1.0] by Suzanne Collins", []Marker{brackets, by},
			[]segment{{"^", "The Hunger Games"}, {"atom:brackets", "The Hunger Games - 1.0"}, {"sep:by", "Suzanne Collins"}}},
		{"no series", "Emma  by Jane Austen", []Marker{brackets, by},
			[]segment{{"^", "Emma"}, {"sep:by", "Jane Austen"}}},
		{"separator word inside the title: the last one cuts", "Stand by Me by Stephen King", []Marker{by},
			[]segment{{"^", "Stand by Me"}, {"sep:by", "Stephen King"}}},
		{"word boundary", "Abby Road by The Band", []Marker{by},
			[]segment{{"^", "Abby Road"}, {"sep:by", "The Band"}}},
		{"calibre second line", "02 Jan, 1880 Tags=[100 best books, Country: Russia] ", []Marker{date, tags, brackets},
			[]segment{{"atom:date", "02 Jan, 1880"}, {"atom:brackets", "100 best books, Country: Russia"}}},
		{"missing date", "Tags=[goodbooks-10k]", []Marker{date, tags, brackets},
			[]segment{{"atom:brackets", "goodbooks-10k"}}},
		{"no marker found", "Anonymous", []Marker{by}, []segment{{"^", "Anonymous"}}},
		{"separator inside brackets is not cut", "A [b by c] by D", []Marker{by},
			[]segment{{"^", "A [b by c]"}, {"sep:by", "D"}}},
		{"label prefix", "Price: $12.99", []Marker{{Sep: "Price:"}}, []segment{{"sep:Price:", "$12.99"}}},
		{"punctuation", "Harry Potter - 2.0", []Marker{{Sep: "-"}}, []segment{{"^", "Harry Potter"}, {"sep:-", "2.0"}}},
		// Issue 15: calibre titles whose series is a range ("#1-3") were cut inside the
		// range and the end of the range written as the series number.
		{"a range is no cut", "The Lord of the Rings, #1-3", []Marker{{Sep: "-"}}, []segment{{"^", "The Lord of the Rings, #1-3"}}},
		{"a decimal range is no cut", "Middle-earth, #0.1-0.5", []Marker{{Sep: "-"}}, []segment{{"^", "Middle-earth, #0.1-0.5"}}},
		{"a hyphen inside a word is no cut", "Middle-earth - 2.0", []Marker{{Sep: "-"}}, []segment{{"^", "Middle-earth"}, {"sep:-", "2.0"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, _ := Clean(tc.value)
			got := applySplit(v, tc.markers)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(segment{})); diff != "" {
				t.Errorf("applySplit(%q) mismatch (-want +got):\n%s", tc.value, diff)
			}
		})
	}
}

func inputs(vals []string, terms ...string) []splitInput {
	tm := map[string]bool{}
	for _, t := range terms {
		tm[t] = true
	}
	var out []splitInput
	for _, v := range vals {
		c, _ := Clean(v)
		out = append(out, splitInput{value: c, terms: tm})
	}
	return out
}

func TestLearnSplit(t *testing.T) {
	titles := []string{"Great Expectations", "The Hunger Games", "Catching Fire", "The Idiot", "Dune",
		"War and Peace", "The Trial", "Emma", "Jane Eyre", "Dracula", "The Stranger", "Animal Farm"}
	authors := []string{"Charles Dickens", "Suzanne Collins", "Suzanne Collins", "Fyodor Dostoevsky", "Frank Herbert",
		"Leo Tolstoy", "Franz Kafka", "Jane Austen", "Charlotte Brontë", "Bram Stoker", "Albert Camus & Matthew Ward", "George Orwell"}
	var firstLine, byline, priced, reversed, labelled, middle []string
	for i := range titles {
		s := titles[i]
		if i%3 == 1 {
			s += fmt.Sprintf(" [Series %d - %d.0]", i, i%4+1)
		}
		firstLine = append(firstLine, s+"  by "+authors[i])
		byline = append(byline, "by "+authors[i])
		priced = append(priced, fmt.Sprintf("%d,%02d €", i+5, (i*37)%100))
		reversed = append(reversed, fmt.Sprintf("%s, %s", authors[i][len(authors[i])/2:], authors[i][:len(authors[i])/2]))
		labelled = append(labelled, fmt.Sprintf("Pages: %d", 100+i*17))
		middle = append(middle, titles[i]+" the "+authors[i])
	}
	var second []string
	for i := range titles {
		second = append(second, fmt.Sprintf("02 Jan, %d Tags=[%s] ", 1850+i*7, []string{"classics", "fantasy, young adult", "russia"}[i%3]))
	}
	// Cells of real sites that must stay whole (issue 15): man-page titles, paths,
	// phrases with a constant head, relative ages; and a count with its unit, which
	// is cut.
	var manPages, paths, sources, ages, hits []string
	for i, n := range []string{"git-log", "git-diff", "git-add", "gitglossary", "git-commit", "git-rev-list", "gitcore-tutorial", "git-push", "git-pull", "git-tag"} {
		manPages = append(manPages, fmt.Sprintf("%s(%d)", n, []int{1, 1, 7, 5}[i%4]))
		paths = append(paths, "/git-doc/"+n+".html")
		ages = append(ages, fmt.Sprintf("%d %s ago", i*7+2, []string{"days", "hours", "min", "weeks"}[i%4]))
		hits = append(hits, fmt.Sprintf("%d Hits", i*3+1))
	}
	for i := range 12 {
		sources = append(sources, []string{"Based on Book/Short Story", "Original Screenplay", "Based on Comic/Graphic Novel",
			"Based on TV", "Remake", "Based on Real Life Events", "Based on Play", "Based on Musical or Opera"}[i%8])
	}
	tests := []struct {
		name  string
		in    []splitInput
		want  []Marker
		notes string
	}{
		{"a bracket group glued to a word", inputs(manPages), nil, "git-log(1) is one value"},
		{"a path", inputs(paths), nil, "no cut inside a token"},
		{"a phrase with a constant head", inputs(sources), nil, "Based on Book/Short Story is one value"},
		{"a relative age", inputs(ages), nil, "5 days ago: what the suffix follows is no number"},
		{"a count and its unit", inputs(hits), []Marker{{Sep: "Hits"}}, ""},
		{"composite first line", inputs(firstLine), []Marker{{Atom: atomBrackets}, {Sep: "by"}}, ""},
		{"calibre second line", inputs(second), []Marker{{Atom: atomDate}, {Sep: "Tags="}, {Atom: atomBrackets}}, ""},
		{"template word as prefix", inputs(byline), []Marker{{Sep: "by"}}, ""},
		{"label prefix", inputs(labelled), []Marker{{Sep: "Pages:"}}, ""},
		{"plain titles", inputs(titles), nil, "a frequent first word is no template word"},
		{"price with decimal comma", inputs(priced), nil, "punctuation inside numbers"},
		{"punctuation between values of one type", inputs(reversed), nil, "'Dickens, Charles' is one value"},
		{"constant", inputs(slices.Repeat([]string{"In stock"}, 10)), nil, "no data to cut"},
		{"a word typed into the form", inputs(middle, "the"), nil, "query terms are no template words"},
		{"the same word not typed", inputs(middle), []Marker{{Sep: "the"}}, ""},
		{"too few values", inputs(firstLine[:3]), nil, ""},
	}
	o := DefaultOptions()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := learnSplit(tc.in, o)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("learnSplit mismatch %s (-want +got):\n%s", tc.notes, diff)
			}
		})
	}
}

func TestSplitSeriesIndex(t *testing.T) {
	// A second level: the series group "Harry Potter - 2.0" splits on " - " because its
	// two sides have different types.
	var vals []string
	for i, s := range []string{"Harry Potter", "The Hunger Games", "Dune", "Foundation", "Middle-earth", "Discworld"} {
		vals = append(vals, fmt.Sprintf("%s - %d.0", s, i+1), fmt.Sprintf("%s - %d.5", s, i+2))
	}
	got := learnSplit(inputs(vals), DefaultOptions())
	if diff := cmp.Diff([]Marker{{Sep: "-"}}, got); diff != "" {
		t.Errorf("learnSplit mismatch (-want +got):\n%s", diff)
	}
}

// gitwebRun reads testdata/gitweb: the records, probe log and form of a real trawl run
// on Debian 12's gitweb over this repository's history up to 3bbd6fb (the run of the
// sixth session's CI failure: 16 probes, 1,085 records of commit search result pages).
func gitwebRun(t *testing.T) ([]records.Record, Input) {
	t.Helper()
	const dir = "testdata/gitweb"
	f, err := os.Open(filepath.Join(dir, "records.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := rundir.DecodeJSONL[records.Record](gz, filepath.Join(dir, "records.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	form, err := rundir.ReadForm(dir)
	if err != nil {
		t.Fatal(err)
	}
	probes, err := rundir.ReadProbes(dir)
	if err != nil {
		t.Fatal(err)
	}
	return recs, Input{Form: &form, Probes: probes}
}

// gitwebSubjects returns the commit subjects of the dark rows of the gitweb run (path
// tr.dark/td[2]/a.list/span, cut at about 50 characters by gitweb) as split inputs with
// their records' other text, as splitCandidates makes them.
func gitwebSubjects(t *testing.T) []splitInput {
	t.Helper()
	recs, in := gitwebRun(t)
	rs, _ := prepare(recs, pageIndex(in.Probes))
	repeated := repeatedTexts(rs)
	var out []splitInput
	for i := range rs {
		for _, l := range rs[i].leaves {
			if l.path == "tr.dark/td[2]/a.list/span" {
				out = append(out, splitInput{value: l.text, terms: rs[i].terms, context: otherText(&rs[i], l.text, repeated)})
				break
			}
		}
	}
	if len(out) < 500 {
		t.Fatalf("testdata/gitweb: %d subjects in dark rows, want ≥ 500", len(out))
	}
	return out
}

// TestBuildGitwebSubjects: on the real gitweb run, the commit subjects (dark and light
// rows) make one feature that is not cut on a word: "the" is in 55 % of them but is a
// word of the language, as common in the commit message lines beside them.
func TestBuildGitwebSubjects(t *testing.T) {
	recs, in := gitwebRun(t)
	s, err := Build(context.Background(), recs, in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	subjects := 0
	for _, f := range s.Features {
		for _, l := range f.Locations {
			if !strings.HasSuffix(l.Path, "/td[2]/a.list/span") || l.Attr != "" {
				continue
			}
			for _, st := range f.Split {
				for _, m := range st.Markers {
					if strings.IndexFunc(m.Sep, unicode.IsLetter) >= 0 {
						t.Errorf("feature %s (%s) is cut on the word %q", f.Name, l.Path, m.Sep)
					}
				}
			}
			if len(f.Split) == 0 {
				subjects = max(subjects, f.Records)
			}
		}
	}
	if subjects < 1000 {
		t.Errorf("the whole subjects are a feature of %d records, want ≥ 1000 of 1085", subjects)
	}
}

// TestLearnSplitFreeText: a word of the language that is in half of the values of free
// text (gitweb's commit subjects: "records: the compact page copy ...") is no template
// word, because it is as common in the records' other text (the commit messages); a
// template word ("by") is kept against the same background.
func TestLearnSplitFreeText(t *testing.T) {
	subjects := gitwebSubjects(t)
	o := DefaultOptions()
	words := func(ms []Marker) []string {
		var out []string
		for _, m := range ms {
			if strings.IndexFunc(m.Sep, unicode.IsLetter) >= 0 {
				out = append(out, m.Sep)
			}
		}
		return out
	}
	// Without the records' other text the subjects look composite (this is how gitweb's
	// subjects were cut on "the"): the language check is what must reject the cut.
	bare := slices.Clone(subjects)
	for i := range bare {
		bare[i].context = nil
	}
	if got := words(learnSplit(bare, o)); len(got) == 0 {
		t.Fatalf("without context the subjects are not cut on a word: the test data no longer tests the language check")
	}
	if got := words(learnSplit(subjects, o)); len(got) > 0 {
		t.Errorf("commit subjects cut on %q: a word of the language taken as a template word", got)
	}
	// The same records with a template: "<area> by <author>".
	bylines := slices.Clone(subjects)
	for i := range bylines {
		area, _, _ := strings.Cut(bylines[i].value, ":")
		bylines[i].value = fmt.Sprintf("%s by %s", area, []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"}[i%4])
	}
	if diff := cmp.Diff([]Marker{{Sep: "by"}}, learnSplit(bylines, o)); diff != "" {
		t.Errorf("template word against the same records' text (-want +got):\n%s", diff)
	}
	// Another template with the same word in the records ("Sold by …") is no running
	// text: it does not make "by" a word of the language.
	for i := range bylines {
		bylines[i].context = []textLeaf{
			{"div.seller", fmt.Sprintf("Sold by Shop %c%c", 'A'+i%26, 'a'+i/26)},
			{"span.price", fmt.Sprintf("$%d.%02d", 5+i%20, i%100)},
		}
	}
	if diff := cmp.Diff([]Marker{{Sep: "by"}}, learnSplit(bylines, o)); diff != "" {
		t.Errorf("template word beside another template with it (-want +got):\n%s", diff)
	}
}
