// Command demogen generates trawl's embedded demo KB (ontology/demokb): real facts
// about books, their authors, publishers, film adaptations and their directors, and
// countries, in the YAGO 4.5 vocabulary, written in YAGO 4.5's export format
// (@prefix lines, then one "s TAB p TAB o TAB ." statement per line).
//
// Books come from goodbooks-10k (the first 3,000 rows used by the calibre test site;
// CC BY-SA 4.0) and the "100 best books" list; they are kept only if their author is in
// authors.tsv, at most a few per author, so that a site built on the same data has
// records both in the KB and not in it. authors.tsv, films.tsv, publishers.tsv and
// countries.tsv hold curated facts from the Wikipedia and Wikidata entries of those
// authors, films, books and countries.
//
// Run with go generate in ontology/demokb; it needs the shared data folder
// ($TRAWL_SHARED, or a "shared" folder beside the repository).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

const (
	yagoNS   = "http://yago-knowledge.org/resource/"
	schemaNS = "http://schema.org/"
	rdfsNS   = graph.RDFS
	xsdNS    = graph.XSD
)

// booksPerAuthor bounds the books taken from one author, most-rated first.
const booksPerAuthor = 5

type author struct {
	spellings                  []string
	name, label, birth, nation string
	books                      int
}

type book struct {
	name, title, alt string
	author           *author
	year             int
	isbn10, isbn13   string
	lang             string // YAGO language resource, if known
	goodreads        int
	source           string
}

type gen struct {
	lines  []string
	seen   map[string]bool
	names  map[string]string // resource name → what it names (to avoid clashes)
	byName map[string]*author
}

func main() {
	shared := flag.String("shared", os.Getenv("TRAWL_SHARED"), "the shared folder (holds sites/calibre/data)")
	dir := flag.String("data", ".", "folder of authors.tsv, films.tsv, publishers.tsv, countries.tsv")
	out := flag.String("out", ".", "output folder (writes yago-demo.ttl.gz and books.tsv)")
	flag.Parse()
	if *shared == "" {
		*shared = findShared()
	}
	g := &gen{seen: map[string]bool{}, names: map[string]string{}, byName: map[string]*author{}}
	if err := g.run(*shared, *dir, *out); err != nil {
		log.Fatal(err)
	}
}

func findShared() string {
	wd, _ := os.Getwd()
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "shared", "sites", "calibre", "data")); err == nil && st.IsDir() {
			return filepath.Join(d, "shared")
		}
	}
	log.Fatal("demogen: shared data not found; set TRAWL_SHARED or -shared")
	return ""
}

// readTSV reads a tab-separated file, skipping '#' comment lines.
func readTSV(path string, cols int) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != cols {
			return nil, fmt.Errorf("%s:%d: %d columns, want %d", path, i+1, len(f), cols)
		}
		rows = append(rows, f)
	}
	return rows, nil
}

func (g *gen) triple(s, p string, o graph.Term) {
	t := graph.Triple{S: graph.NewIRI(s), P: graph.NewIRI(p), O: o}
	if err := t.Validate(); err != nil {
		log.Fatalf("demogen: %v", err)
	}
	l := short(t.S) + "\t" + short(t.P) + "\t" + short(t.O) + "\t."
	if !g.seen[l] {
		g.seen[l] = true
		g.lines = append(g.lines, l)
	}
}

func iri(ns, local string) graph.Term { return graph.NewIRI(ns + local) }
func en(s string) graph.Term          { return graph.NewLangString(s, "en") }

var prefixes = [][2]string{
	{"yago", yagoNS}, {"schema", schemaNS}, {"rdfs", rdfsNS}, {"rdf", graph.RDF}, {"xsd", xsdNS},
}

// short writes a term as YAGO 4.5 does: a prefixed name when the local name needs no
// escaping, else the full IRI in angle brackets.
func short(t graph.Term) string {
	if t.Kind == graph.KindIRI {
		for _, p := range prefixes {
			if local, ok := strings.CutPrefix(t.Value, p[1]); ok && plainLocal(local) {
				return p[0] + ":" + local
			}
		}
		return t.String()
	}
	s := t.String()
	if t.Datatype != "" {
		if local, ok := strings.CutPrefix(t.Datatype, xsdNS); ok {
			s = strings.TrimSuffix(s, "<"+t.Datatype+">") + "xsd:" + local
		}
	}
	return s
}

func plainLocal(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || (r == '-' && i > 0)) {
			return false
		}
	}
	return s != ""
}

// claim reserves a resource name for a thing, adding a disambiguator when the name is
// taken by something else.
func (g *gen) claim(name, what, disambiguator string) string {
	if prev, ok := g.names[name]; ok && prev != what {
		name += "_(" + disambiguator + ")"
	}
	g.names[name] = what
	return name
}

func (g *gen) run(shared, dir, out string) error {
	data := filepath.Join(shared, "sites", "calibre", "data")
	// Taxonomy (schema.org, as YAGO 4.5 uses it) and class labels.
	for _, c := range [][3]string{
		{"Book", "CreativeWork", "book"}, {"Movie", "CreativeWork", "film"}, {"CreativeWork", "Thing", "creative work"},
		{"Person", "Thing", "person"}, {"Organization", "Thing", "organization"},
		{"Country", "AdministrativeArea", "country"}, {"AdministrativeArea", "Place", "administrative area"},
		{"Place", "Thing", "place"}, {"Language", "Intangible", "language"}, {"Intangible", "Thing", "intangible"},
	} {
		g.triple(schemaNS+c[0], graph.SubClassOf, iri(schemaNS, c[1]))
		g.triple(schemaNS+c[0], rdfsNS+"label", en(c[2]))
	}
	g.triple(schemaNS+"Thing", rdfsNS+"label", en("thing"))

	countries, err := readTSV(filepath.Join(dir, "countries.tsv"), 3)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, c := range countries {
		known[c[0]] = true
		s := yagoNS + g.claim(c[0], "country:"+c[0], "country")
		g.triple(s, graph.RDFType, iri(schemaNS, "Country"))
		g.triple(s, rdfsNS+"label", en(c[1]))
		for _, a := range strings.Split(c[2], "|") {
			if a != "" {
				g.triple(s, schemaNS+"alternateName", en(a))
			}
		}
	}

	rows, err := readTSV(filepath.Join(dir, "authors.tsv"), 5)
	if err != nil {
		return err
	}
	var authors []*author
	for _, r := range rows {
		a := &author{spellings: strings.Split(r[0], "|"), name: r[1], label: r[2], birth: r[3], nation: r[4]}
		if a.nation != "" && !known[a.nation] {
			return fmt.Errorf("authors.tsv: %s: unknown country %s", a.label, a.nation)
		}
		for _, s := range a.spellings {
			g.byName[s] = a
		}
		g.byName[a.label] = a
		authors = append(authors, a)
	}

	books, err := g.readBooks(filepath.Join(data, "goodbooks-10k-books-first3000.csv"), filepath.Join(data, "100-best-books.json"), dir)
	if err != nil {
		return err
	}
	languages := map[string]bool{}
	for _, b := range books {
		s := yagoNS + b.name
		g.triple(s, graph.RDFType, iri(schemaNS, "Book"))
		g.triple(s, rdfsNS+"label", en(b.title))
		if b.alt != "" && b.alt != b.title {
			g.triple(s, schemaNS+"alternateName", en(b.alt))
		}
		g.triple(s, schemaNS+"author", iri(yagoNS, b.author.name))
		if b.year > 0 {
			g.triple(s, schemaNS+"dateCreated", graph.NewTyped(fmt.Sprintf("%04d", b.year), xsdNS+"gYear"))
		}
		if b.isbn13 != "" {
			g.triple(s, schemaNS+"isbn", graph.NewLiteral(b.isbn13))
			g.triple(s, schemaNS+"isbn", graph.NewLiteral(b.isbn10))
		}
		if b.lang != "" {
			g.triple(s, schemaNS+"inLanguage", iri(yagoNS, b.lang))
			languages[b.lang] = true
		}
	}
	for l := range languages {
		g.triple(yagoNS+l, graph.RDFType, iri(schemaNS, "Language"))
		g.triple(yagoNS+l, rdfsNS+"label", en(strings.TrimSuffix(l, "_language")))
	}
	for _, a := range authors {
		if a.books == 0 {
			continue
		}
		s := yagoNS + a.name
		g.triple(s, graph.RDFType, iri(schemaNS, "Person"))
		g.triple(s, rdfsNS+"label", en(a.label))
		for _, sp := range a.spellings {
			if sp != a.label {
				g.triple(s, schemaNS+"alternateName", en(sp))
			}
		}
		switch len(a.birth) {
		case 0:
		case 4:
			g.triple(s, schemaNS+"birthDate", graph.NewTyped(a.birth, xsdNS+"gYear"))
		default:
			g.triple(s, schemaNS+"birthDate", graph.NewTyped(a.birth, xsdNS+"date"))
		}
		if a.nation != "" {
			g.triple(s, schemaNS+"nationality", iri(yagoNS, a.nation))
		}
	}
	byTitle := map[string]*book{}
	for _, b := range books {
		byTitle[key(b.title, b.author)] = b
		if b.alt != "" {
			byTitle[key(b.alt, b.author)] = b
		}
	}
	pubs, err := readTSV(filepath.Join(dir, "publishers.tsv"), 4)
	if err != nil {
		return err
	}
	for _, p := range pubs {
		b := byTitle[key(p[0], g.byName[p[1]])]
		if b == nil {
			return fmt.Errorf("publishers.tsv: book %q by %s is not in the demo KB", p[0], p[1])
		}
		s := yagoNS + g.claim(p[2], "publisher:"+p[2], "publisher")
		g.triple(s, graph.RDFType, iri(schemaNS, "Organization"))
		g.triple(s, rdfsNS+"label", en(p[3]))
		g.triple(yagoNS+b.name, schemaNS+"publisher", graph.NewIRI(s))
	}
	films, err := readTSV(filepath.Join(dir, "films.tsv"), 6)
	if err != nil {
		return err
	}
	for _, f := range films {
		if byTitle[key(f[4], g.byName[f[5]])] == nil {
			return fmt.Errorf("films.tsv: %s: book %q by %s is not in the demo KB", f[0], f[4], f[5])
		}
		s := yagoNS + g.claim(f[0], "film:"+f[0], "film")
		g.triple(s, graph.RDFType, iri(schemaNS, "Movie"))
		g.triple(s, rdfsNS+"label", en(f[1]))
		g.triple(s, schemaNS+"dateCreated", graph.NewTyped(f[2], xsdNS+"gYear"))
		for _, d := range strings.Split(f[3], ";") {
			name, label, ok := strings.Cut(d, "=")
			if !ok {
				return fmt.Errorf("films.tsv: %s: director %q is not name=label", f[0], d)
			}
			ds := yagoNS + name
			g.triple(ds, graph.RDFType, iri(schemaNS, "Person"))
			g.triple(ds, rdfsNS+"label", en(label))
			g.triple(s, schemaNS+"director", graph.NewIRI(ds))
		}
	}
	return g.write(out, books)
}

func key(title string, a *author) string {
	if a == nil {
		return ""
	}
	return textnorm.Literal(title) + "\x00" + a.name
}

// readBooks takes, for each curated author, the first booksPerAuthor of their books in
// goodbooks (most-rated first), plus the books that films.tsv and publishers.tsv name,
// plus their books in the 100-best list.
func (g *gen) readBooks(csvPath, jsonPath, dir string) ([]*book, error) {
	f, err := os.Open(csvPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	wanted := map[string]bool{}
	for _, file := range []struct {
		name   string
		cols   int
		ti, ai int
	}{{"films.tsv", 6, 4, 5}, {"publishers.tsv", 4, 0, 1}} {
		rows, err := readTSV(filepath.Join(dir, file.name), file.cols)
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			wanted[key(row[file.ti], g.byName[row[file.ai]])] = true
		}
	}
	var books []*book
	have := map[string]*book{}
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		a := g.byName[strings.Split(rec[col["authors"]], ", ")[0]]
		if a == nil {
			continue
		}
		// The label is the edition's title without its series suffix; the original
		// title (often the title in the original language) is an alternate name when
		// it shares a word with it (goodbooks has rows whose original_title belongs
		// to another book).
		title := strings.TrimSpace(textnorm.StripBracketed(rec[col["title"]]))
		alt := strings.TrimSpace(textnorm.StripBracketed(rec[col["original_title"]]))
		if alt == "" || !shareWord(title, alt) {
			alt = ""
		}
		k, ka := key(title, a), key(alt, a)
		if have[k] != nil || alt != "" && have[ka] != nil ||
			(a.books >= booksPerAuthor && !wanted[k] && !(alt != "" && wanted[ka])) {
			continue
		}
		b := &book{title: title, alt: alt, author: a, source: "goodbooks-10k"}
		if y, err := strconv.ParseFloat(rec[col["original_publication_year"]], 64); err == nil && y > 0 {
			b.year = int(y)
		}
		b.goodreads, _ = strconv.Atoi(rec[col["goodreads_book_id"]])
		b.isbn10, b.isbn13 = isbns(rec[col["isbn"]])
		if isEnglish(rec[col["language_code"]]) && englishSpeaking[a.nation] {
			b.lang = "English_language"
		}
		a.books++
		have[k] = b
		if alt != "" {
			have[ka] = b
		}
		books = append(books, b)
	}
	var best []struct {
		Author, Title, Language string
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &best); err != nil {
		return nil, err
	}
	for _, e := range best {
		a := g.byName[e.Author]
		if a == nil || genericTitles[strings.ToLower(e.Title)] {
			continue
		}
		lang := ""
		if l := strings.TrimSpace(e.Language); l != "" && !strings.Contains(l, ",") {
			lang = l + "_language"
		}
		if b := have[key(e.Title, a)]; b != nil {
			b.source += ", 100-best-books"
			if b.lang == "" {
				b.lang = lang
			}
			continue
		}
		// The list's years are not all first publication years; they are not used.
		b := &book{title: e.Title, author: a, lang: lang, source: "100-best-books"}
		a.books++
		have[key(e.Title, a)] = b
		books = append(books, b)
	}
	for k := range wanted {
		if have[k] == nil {
			return nil, fmt.Errorf("a book named in films.tsv or publishers.tsv is not in goodbooks: %q", strings.ReplaceAll(k, "\x00", " by "))
		}
	}
	for _, b := range books {
		b.name = g.claim(resourceName(b.title), "book:"+key(b.title, b.author), "book")
	}
	return books, nil
}

// genericTitles are collection names of the 100-best list that name no single work.
var genericTitles = map[string]bool{"stories": true, "tales": true, "poems": true, "essays": true, "fairy tales": true}

// shareWord reports whether two titles have a content word in common.
func shareWord(a, b string) bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(textnorm.Literal(a)) {
		words[w] = true
	}
	for _, w := range strings.Fields(textnorm.Literal(b)) {
		if words[w] {
			return true
		}
	}
	return false
}

var englishSpeaking = map[string]bool{"United_States": true, "United_Kingdom": true, "Canada": true, "Australia": true, "Ireland": true}

func isEnglish(code string) bool { return code == "eng" || strings.HasPrefix(code, "en-") }

// resourceName makes a YAGO-style resource name from a title.
func resourceName(title string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(title), " "), " ", "_")
}

// isbns restores the ISBN-10 of the goodbooks column (which lost its leading zeros),
// checks its check digit and derives the ISBN-13. Invalid numbers give "".
func isbns(s string) (string, string) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "" || len(s) > 10 {
		return "", ""
	}
	s = strings.Repeat("0", 10-len(s)) + s
	sum := 0
	for i, c := range s {
		v := int(c - '0')
		if c == 'X' && i == 9 {
			v = 10
		} else if c < '0' || c > '9' {
			return "", ""
		}
		sum += (10 - i) * v
	}
	if sum%11 != 0 {
		return "", ""
	}
	d := "978" + s[:9]
	sum = 0
	for i, c := range d {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += w * int(c-'0')
	}
	return s, d + strconv.Itoa((10-sum%10)%10)
}

const header = `# trawl demo KB: real facts about books, their authors, publishers, film adaptations
# and their directors, and countries, in the YAGO 4.5 vocabulary and export format.
# Generated by ontology/internal/demogen (go generate ./ontology/demokb); do not edit.
#
# Sources and licences:
#  - Book titles, original publication years, ISBNs: goodbooks-10k, books.csv
#    (github.com/zygmuntz/goodbooks-10k, commit 6dd165b), CC BY-SA 4.0; and the
#    "100 best books" list (github.com/benoitvallon/100-best-books, commit 5e716ee).
#  - Authors' birth dates and nationalities, first publishers, films and directors:
#    curated from the Wikipedia (CC BY-SA 4.0) and Wikidata (CC0) entries of the
#    people, books and films.
#  - Vocabulary: YAGO 4.5 (yago-knowledge.org, CC BY 4.0).
# This file is distributed under CC BY-SA 4.0.
`

func (g *gen) write(out string, books []*book) error {
	slices.Sort(g.lines)
	var buf bytes.Buffer
	buf.WriteString(header)
	for _, p := range prefixes {
		fmt.Fprintf(&buf, "@prefix %s: <%s> .\n", p[0], p[1])
	}
	for _, l := range g.lines {
		buf.WriteString(l)
		buf.WriteByte('\n')
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Name = "yago-demo.ttl"
	if _, err := zw.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "yago-demo.ttl.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	var tsv bytes.Buffer
	w := bufio.NewWriter(&tsv)
	fmt.Fprintln(w, "# The books of the demo KB (generated by demogen; CC BY-SA 4.0, see yago-demo.ttl.gz).")
	fmt.Fprintln(w, "#iri\ttitle\talternate title\tauthor\tyear\tisbn13\tgoodreads_book_id\tsource")
	slices.SortFunc(books, func(a, b *book) int { return strings.Compare(a.name, b.name) })
	for _, b := range books {
		gr := ""
		if b.goodreads > 0 {
			gr = strconv.Itoa(b.goodreads)
		}
		alt := b.alt
		if alt == b.title {
			alt = ""
		}
		y := ""
		if b.year > 0 {
			y = strconv.Itoa(b.year)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", yagoNS+b.name, b.title, alt, b.author.label, y, b.isbn13, gr, b.source)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "books.tsv"), tsv.Bytes(), 0o644); err != nil {
		return err
	}
	log.Printf("demogen: %d triples, %d books, %d bytes compressed", len(g.lines), len(books), gz.Len())
	return nil
}
