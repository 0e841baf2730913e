package bookkb

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/graph"
	"github.com/trawl-dev/trawl/internal/textnorm"
)

// Vocabulary.
const (
	YAGO   = "http://yago-knowledge.org/resource/"
	Schema = "http://schema.org/"
)

// Options configures Build.
type Options struct {
	// Shared is the shared folder (with sites/calibre/data and data/yago3-10).
	Shared string
	// Seed makes the random choices.
	Seed uint64
	// InKB is the share of the site's works that the KB has.
	InKB float64
	// Films adds films: real YAGO3 films and films titled like the site's works. Without
	// them the KB has no film at all (a books-only KB).
	Films bool
	// OtherBooks is the number of made-up books the site does not have.
	OtherBooks int
}

// DefaultOptions returns the options of the tests: three quarters of the works in the
// KB, films, 4,000 other books.
func DefaultOptions(shared string) Options {
	return Options{Shared: shared, Seed: 15, InKB: 0.75, Films: true, OtherBooks: 4000}
}

// Book is one record of the calibre site, as the site shows it (calibre-import.py), with
// the KB entity of its work.
type Book struct {
	// List is "goodbooks" or "best100"; Row the 0-based row in that list.
	List string
	Row  int
	// Title without the series suffix; Series and SeriesIndex from "(Series, #n)".
	Title       string
	Series      string
	SeriesIndex string
	Authors     []string
	// Year is the publication year the site shows (HasYear false when it shows none:
	// calibre cannot store years before 1).
	Year    int
	HasYear bool
	// Work is the IRI of the KB entity of the book's work, "" when the KB does not have
	// it.
	Work string

	// What only the KB uses: goodbooks' original title and ISBN, the language.
	origTitle, isbn, lang string
}

// KB is a generated knowledge base and the site's books.
type KB struct {
	Triples []graph.Triple
	Books   []Book
	// Counts of what was generated, by kind.
	Counts map[string]int

	byTitle map[string][]int
}

// Errors of Build.
var ErrData = errors.New("bookkb: shared data")

type builder struct {
	o       Options
	rnd     *rand.Rand
	triples []graph.Triple
	iris    map[string]bool // minted IRIs
	counts  map[string]int

	titles   map[string]bool // normal forms of the site's titles
	authors  map[string]bool // normal forms of the site's author names
	persons  []yagoPerson    // real YAGO3 people, homonyms of site authors excluded
	personOf map[string]string
	ents     []string // YAGO3 entity names
	created  map[string]int
	born     map[string]int
	directed map[string]string // film → director entity name

	titleWords [][]string // the words of the site's titles
}

type yagoPerson struct {
	name  string
	label string
	born  int
}

// Build builds the KB.
func Build(o Options) (*KB, error) {
	if o.InKB < 0 || o.InKB > 1 {
		return nil, fmt.Errorf("bookkb: InKB must be in [0, 1], got %v", o.InKB)
	}
	b := &builder{o: o, rnd: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)), iris: map[string]bool{},
		counts: map[string]int{}, titles: map[string]bool{}, authors: map[string]bool{}, personOf: map[string]string{}}
	books, err := readSite(o.Shared)
	if err != nil {
		return nil, err
	}
	for _, bk := range books {
		b.titleWords = append(b.titleWords, strings.Fields(bk.Title))
		b.titles[textnorm.Literal(bk.Title)] = true
		for _, a := range bk.Authors {
			b.authors[textnorm.Literal(a)] = true
		}
	}
	if err := b.readYAGO(); err != nil {
		return nil, err
	}
	b.taxonomy()
	works := b.works(books)
	b.homonyms()
	b.distractorBooks(books, works)
	if o.Films {
		b.films(books)
	}
	slices.SortFunc(b.triples, func(x, y graph.Triple) int { return strings.Compare(x.String(), y.String()) })
	b.triples = slices.Compact(b.triples)
	return &KB{Triples: b.triples, Books: books, Counts: b.counts}, nil
}

var seriesRE = regexp.MustCompile(`^(.*?)\s*\(([^()#]+?),?\s*#([\d.]+)\)\s*$`)

// readSite reads the site's records as calibre-import.py builds them.
func readSite(shared string) ([]Book, error) {
	dir := filepath.Join(shared, "sites", "calibre", "data")
	f, err := os.Open(filepath.Join(dir, "goodbooks-10k-books-first3000.csv"))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrData, err)
	}
	defer func() { _ = f.Close() }() // read only
	rd := csv.NewReader(f)
	head, err := rd.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrData, f.Name(), err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, c := range []string{"title", "authors", "original_publication_year", "original_title", "isbn", "language_code"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%w: %s: no column %q", ErrData, f.Name(), c)
		}
	}
	var books []Book
	for row := 0; ; row++ {
		r, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrData, f.Name(), err)
		}
		bk := Book{List: "goodbooks", Row: row, Title: r[col["title"]]}
		if m := seriesRE.FindStringSubmatch(bk.Title); m != nil {
			bk.Title, bk.Series, bk.SeriesIndex = m[1], strings.TrimSpace(m[2]), m[3]
		}
		for _, a := range strings.Split(r[col["authors"]], ",") {
			if a = strings.TrimSpace(a); a != "" {
				bk.Authors = append(bk.Authors, a)
			}
		}
		if y, err := strconv.ParseFloat(r[col["original_publication_year"]], 64); err == nil {
			bk.Year = int(y)
			bk.HasYear = bk.Year >= 1 && bk.Year <= 9999
		} else {
			bk.Year = math.MinInt
		}
		bk.origTitle, bk.isbn, bk.lang = r[col["original_title"]], r[col["isbn"]], r[col["language_code"]]
		books = append(books, bk)
	}
	jb, err := os.ReadFile(filepath.Join(dir, "100-best-books.json"))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrData, err)
	}
	var best []struct {
		Author   string `json:"author"`
		Title    string `json:"title"`
		Year     int    `json:"year"`
		Language string `json:"language"`
	}
	if err := json.Unmarshal(jb, &best); err != nil {
		return nil, fmt.Errorf("%w: 100-best-books.json: %v", ErrData, err)
	}
	for i, x := range best {
		lang, _, _ := strings.Cut(x.Language, ",")
		books = append(books, Book{List: "best100", Row: i, Title: x.Title, Authors: []string{x.Author},
			Year: x.Year, HasYear: x.Year >= 1 && x.Year <= 9999, lang: strings.TrimSpace(lang)})
	}
	return books, nil
}

// readYAGO reads the YAGO3-10 entity names, their years and the directed facts.
func (b *builder) readYAGO() error {
	dir := filepath.Join(b.o.Shared, "data", "yago3-10")
	err := eachLine(filepath.Join(dir, "entities.dict"), func(f []string) {
		if len(f) == 2 {
			b.ents = append(b.ents, f[1])
		}
	})
	if err != nil {
		return err
	}
	b.created, b.born, b.directed = map[string]int{}, map[string]int{}, map[string]string{}
	for _, name := range []string{"train.txt", "val.txt", "test.txt"} {
		err := eachLine(filepath.Join(dir, "literals-yago10plus", name), func(f []string) {
			if len(f) != 3 {
				return
			}
			y, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				return
			}
			switch f[1] {
			case "wasCreatedOnDate":
				b.created[f[0]] = int(y)
			case "wasBornOnDate":
				b.born[f[0]] = int(y)
			}
		})
		if err != nil {
			return err
		}
	}
	for _, name := range []string{"test.txt", "valid.txt"} {
		err := eachLine(filepath.Join(dir, name), func(f []string) {
			if len(f) == 3 && f[1] == "directed" {
				b.directed[f[2]] = f[0]
			}
		})
		if err != nil {
			return err
		}
	}
	slices.Sort(b.ents)
	for _, e := range b.ents {
		y, ok := b.born[e]
		if !ok || y < 1700 || y > 1995 {
			continue
		}
		l := label(e)
		n := textnorm.Literal(l)
		if n == "" || b.authors[n] || b.titles[n] || strings.ContainsAny(l, "0123456789") {
			continue
		}
		b.persons = append(b.persons, yagoPerson{name: e, label: l, born: y})
	}
	if len(b.persons) < 1000 {
		return fmt.Errorf("%w: only %d YAGO3 people with a birth year in %s", ErrData, len(b.persons), dir)
	}
	return nil
}

func eachLine(path string, fn func(f []string)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrData, err)
	}
	defer func() { _ = f.Close() }() // read only
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fn(strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrData, path, err)
	}
	return nil
}

// label is the usual label of a YAGO3 id: '_' to space, the trailing " (…)"
// disambiguator removed.
func label(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	return s
}

// disambiguator returns the text in the trailing parentheses of a YAGO3 id.
func disambiguator(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		return s[i+2 : len(s)-1]
	}
	return ""
}

func iri(local string) graph.Term { return graph.NewIRI(YAGO + url.PathEscape(local)) }
func sch(local string) graph.Term { return graph.NewIRI(Schema + local) }

var (
	rdfType  = graph.NewIRI(graph.RDFType)
	rdfsLab  = graph.NewIRI(graph.RDFSLabel)
	subClass = graph.NewIRI(graph.RDFS + "subClassOf")
)

func (b *builder) add(s, p, o graph.Term) {
	b.triples = append(b.triples, graph.Triple{S: s, P: p, O: o})
}

// mint returns a new IRI for local name, with a disambiguator when it is taken.
func (b *builder) mint(local, dis string) graph.Term {
	local = strings.ReplaceAll(strings.Join(strings.Fields(local), " "), " ", "_")
	cand := local
	for k := 1; b.iris[cand]; k++ {
		cand = fmt.Sprintf("%s_(%s)", local, dis)
		if k > 1 {
			cand = fmt.Sprintf("%s_(%s_%d)", local, dis, k)
		}
	}
	b.iris[cand] = true
	return iri(cand)
}

func year(y int) graph.Term {
	s := fmt.Sprintf("%04d", y)
	if y < 0 {
		s = fmt.Sprintf("-%04d", -y)
	}
	return graph.NewTyped(s, graph.XSDGYear)
}

func (b *builder) taxonomy() {
	for _, p := range [][2]string{{"Book", "CreativeWork"}, {"Movie", "CreativeWork"}, {"TVSeries", "CreativeWork"},
		{"MusicAlbum", "CreativeWork"}, {"MusicRecording", "CreativeWork"}, {"VideoGame", "CreativeWork"},
		{"CreativeWork", "Thing"}, {"Person", "Thing"}, {"MusicGroup", "Organization"}, {"Organization", "Thing"},
		{"Language", "Intangible"}, {"Intangible", "Thing"}} {
		b.add(sch(p[0]), subClass, sch(p[1]))
	}
}

// languages maps goodbooks language codes and 100-best language names to YAGO entities.
var languages = map[string]string{"eng": "English", "en-US": "English", "en-GB": "English", "en-CA": "English",
	"en": "English", "spa": "Spanish", "fre": "French", "ger": "German", "ita": "Italian", "jpn": "Japanese",
	"por": "Portuguese", "ara": "Arabic", "nl": "Dutch", "swe": "Swedish", "rus": "Russian", "ind": "Indonesian",
	"pol": "Polish", "tur": "Turkish", "mul": ""}

func (b *builder) language(name string) graph.Term {
	if name == "" {
		return graph.Term{}
	}
	if l, ok := languages[name]; ok {
		name = l
	}
	if name == "" {
		return graph.Term{}
	}
	t := iri(strings.ReplaceAll(name, " ", "_") + "_language")
	if !b.iris[t.Value] {
		b.iris[t.Value] = true
		b.add(t, rdfType, sch("Language"))
		b.add(t, rdfsLab, graph.NewLangString(name, "en"))
	}
	return t
}

// person returns the KB entity of an author of the site, creating it.
func (b *builder) person(name string) graph.Term {
	name = strings.Join(strings.Fields(name), " ")
	key := textnorm.Literal(name)
	if p, ok := b.personOf[key]; ok {
		return graph.NewIRI(p)
	}
	t := b.mint(name, "writer")
	b.personOf[key] = t.Value
	b.add(t, rdfType, sch("Person"))
	b.add(t, rdfsLab, graph.NewLangString(name, "en"))
	if y, ok := b.born[strings.ReplaceAll(name, " ", "_")]; ok {
		b.add(t, sch("birthDate"), year(y))
	}
	b.counts["site authors"]++
	return t
}

// sameAuthor reports whether two spellings name one person (Dostoevsky, Dostoyevsky).
func sameAuthor(a, c string) bool {
	na, nc := textnorm.Literal(a), textnorm.Literal(c)
	return na == nc || textnorm.Dice(na, nc, 2) >= 0.75
}

// works decides which of the site's works the KB has and writes them; it returns the
// KB entity of each book ("" if not in the KB), and sets Book.Work.
func (b *builder) works(books []Book) []string {
	type work struct {
		iri   string
		first int // index of the book that made it
	}
	byTitle := map[string][]work{}
	out := make([]string, len(books))
	for i := range books {
		bk := &books[i]
		key := textnorm.Literal(bk.Title)
		var found *work
		for k, w := range byTitle[key] {
			first := books[w.first]
			if len(first.Authors) > 0 && len(bk.Authors) > 0 && (sameAuthor(first.Authors[0], bk.Authors[0]) ||
				bk.Authors[0] == "Unknown" || first.Authors[0] == "Anonymous") {
				found = &byTitle[key][k]
				break
			}
		}
		if found != nil {
			bk.Work = found.iri
			out[i] = found.iri
			if found.iri != "" && len(bk.Authors) > 0 && bk.Authors[0] != "Unknown" {
				// The other list's spelling of the author is an alternate name.
				if p, ok := b.personOf[textnorm.Literal(books[found.first].Authors[0])]; ok && !sameName(books[found.first].Authors[0], bk.Authors[0]) {
					b.add(graph.NewIRI(p), sch("alternateName"), graph.NewLangString(bk.Authors[0], "en"))
				}
			}
			continue
		}
		w := work{first: i}
		if b.rnd.Float64() < b.o.InKB {
			t := b.mint(bk.Title, "novel")
			w.iri = t.Value
			b.writeWork(t, bk)
		}
		byTitle[key] = append(byTitle[key], w)
		bk.Work = w.iri
		out[i] = w.iri
	}
	return out
}

func sameName(a, c string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(c), " ")
}

func (b *builder) writeWork(t graph.Term, bk *Book) {
	b.counts["site works in the KB"]++
	b.add(t, rdfType, sch("Book"))
	b.add(t, rdfsLab, graph.NewLangString(bk.Title, "en"))
	if len(bk.Authors) > 0 && bk.Authors[0] != "Unknown" {
		b.add(t, sch("author"), b.person(bk.Authors[0]))
	}
	if bk.Year != math.MinInt && bk.Year != 0 {
		b.add(t, sch("datePublished"), year(bk.Year))
	}
	if orig := strings.TrimSpace(bk.origTitle); orig != "" && textnorm.Literal(orig) != textnorm.Literal(bk.Title) {
		// YAGO has labels in several languages: the original title is a label too.
		b.add(t, rdfsLab, graph.NewLiteral(orig))
		b.counts["original titles as labels"]++
	}
	if isbn := strings.TrimSpace(bk.isbn); isbn != "" {
		for len(isbn) < 10 {
			isbn = "0" + isbn
		}
		b.add(t, sch("isbn"), graph.NewLiteral(isbn))
	}
	if l := b.language(bk.lang); !l.IsZero() {
		b.add(t, sch("inLanguage"), l)
	}
}

// homonyms adds the real YAGO3 people who share a site author's name but are someone
// else (a footballer, a musician), some with a book of their own.
func (b *builder) homonyms() {
	same := regexp.MustCompile(`(?i)author|writer|novelist|poet|journalist|historian|philosopher|playwright|comics|illustrator|screenwriter|cartoonist|critic|essayist|scholar|theologian`)
	for _, e := range b.ents {
		dis := disambiguator(e)
		if dis == "" || same.MatchString(dis) || !b.authors[textnorm.Literal(label(e))] {
			continue
		}
		t := iri(e)
		b.iris[e] = true
		b.add(t, rdfType, sch("Person"))
		b.add(t, rdfsLab, graph.NewLangString(label(e), "en"))
		if y, ok := b.born[e]; ok {
			b.add(t, sch("birthDate"), year(y))
		}
		b.counts["homonym people (YAGO3)"]++
		if b.rnd.IntN(2) == 0 {
			by := b.born[e]
			if by == 0 {
				by = 1940 + b.rnd.IntN(40)
			}
			b.book(b.newTitle(), t, by+25+b.rnd.IntN(30), "homonyms' books")
		}
	}
	// YAGO3-10 is a small sample of YAGO: as many more homonyms again as a tenth of the
	// site's authors, each with a profession as disambiguator and a book.
	names := make([]string, 0, len(b.personOf))
	for _, iri := range b.personOf {
		names = append(names, iri)
	}
	slices.Sort(names)
	jobs := []string{"footballer", "politician", "musician", "actor", "painter", "cricketer", "bishop", "engineer"}
	for _, p := range names {
		if b.rnd.Float64() >= 0.1 {
			continue
		}
		local := strings.TrimPrefix(p, YAGO)
		if l, err := url.PathUnescape(local); err == nil {
			local = l
		}
		name := strings.ReplaceAll(local, "_", " ")
		t := b.mint(local, jobs[b.rnd.IntN(len(jobs))])
		born := 1900 + b.rnd.IntN(90)
		b.add(t, rdfType, sch("Person"))
		b.add(t, rdfsLab, graph.NewLangString(label(strings.ReplaceAll(name, " ", "_")), "en"))
		b.add(t, sch("birthDate"), year(born))
		b.counts["homonym people (made up)"]++
		b.book(b.newTitle(), t, born+25+b.rnd.IntN(40), "homonyms' books")
	}
}

// book writes a distractor book.
func (b *builder) book(title string, author graph.Term, y int, kind string) {
	t := b.mint(title, "book")
	b.add(t, rdfType, sch("Book"))
	b.add(t, rdfsLab, graph.NewLangString(title, "en"))
	if !author.IsZero() {
		b.add(t, sch("author"), author)
	}
	if y > 2017 {
		y = 2017
	}
	b.add(t, sch("datePublished"), year(y))
	b.add(t, sch("inLanguage"), b.language("English"))
	b.counts[kind]++
}

// yagoPerson returns a random real YAGO3 person as a KB entity.
func (b *builder) randomPerson() (graph.Term, int) {
	p := b.persons[b.rnd.IntN(len(b.persons))]
	t := iri(p.name)
	if !b.iris[p.name] {
		b.iris[p.name] = true
		b.add(t, rdfType, sch("Person"))
		b.add(t, rdfsLab, graph.NewLangString(p.label, "en"))
		b.add(t, sch("birthDate"), year(p.born))
		b.counts["other people (YAGO3)"]++
	}
	return t, p.born
}

// newTitle makes a title that no site book has from the words of two real titles: the
// beginning of one and the end of another.
func (b *builder) newTitle() string {
	for {
		x := b.titleWords[b.rnd.IntN(len(b.titleWords))]
		y := b.titleWords[b.rnd.IntN(len(b.titleWords))]
		if len(x) < 2 || len(y) < 2 {
			continue
		}
		i, j := 1+b.rnd.IntN(len(x)-1), 1+b.rnd.IntN(len(y)-1)
		t := strings.Join(append(slices.Clone(x[:i]), y[j:]...), " ")
		if n := textnorm.Literal(t); n != "" && !b.titles[n] && len(strings.Fields(t)) >= 2 {
			return t
		}
	}
}

// nearTitle returns a title one small edit away from t (a plural, an article), or "".
func nearTitle(t string) string {
	switch {
	case strings.HasPrefix(t, "The "):
		return strings.TrimPrefix(t, "The ")
	case strings.HasSuffix(t, "s") && len(t) > 4:
		return strings.TrimSuffix(t, "s")
	case len(strings.Fields(t)) <= 3:
		return t + "s"
	}
	return ""
}

func (b *builder) distractorBooks(books []Book, works []string) {
	byAuthor := map[string][]int{} // years of an author's site books in the KB
	for i, bk := range books {
		if works[i] == "" || len(bk.Authors) == 0 || bk.Authors[0] == "Unknown" || !bk.HasYear {
			continue
		}
		if p, ok := b.personOf[textnorm.Literal(strings.Join(strings.Fields(bk.Authors[0]), " "))]; ok {
			byAuthor[p] = append(byAuthor[p], bk.Year)
		}
	}
	seen := map[string]bool{}
	for _, bk := range books {
		key := textnorm.Literal(bk.Title)
		if seen[key] {
			continue
		}
		seen[key] = true
		switch r := b.rnd.Float64(); {
		case r < 0.08: // the same title, by someone else
			p, born := b.randomPerson()
			b.book(bk.Title, p, born+20+b.rnd.IntN(50), "same-title books")
		case r < 0.13: // a title one edit away, by someone else
			if nt := nearTitle(bk.Title); nt != "" && !b.titles[textnorm.Literal(nt)] {
				p, born := b.randomPerson()
				b.book(nt, p, born+20+b.rnd.IntN(50), "near-title books")
			}
		}
	}
	authors := make([]string, 0, len(byAuthor))
	for a := range byAuthor {
		authors = append(authors, a)
	}
	slices.Sort(authors)
	for _, a := range authors {
		if b.rnd.Float64() >= 0.3 {
			continue
		}
		ys := byAuthor[a]
		for range 1 + b.rnd.IntN(3) {
			b.book(b.newTitle(), graph.NewIRI(a), ys[b.rnd.IntN(len(ys))]+b.rnd.IntN(21)-10, "other books of site authors")
		}
	}
	for range b.o.OtherBooks {
		p, born := b.randomPerson()
		b.book(b.newTitle(), p, born+20+b.rnd.IntN(50), "books not on the site")
	}
}

// films adds real YAGO3 films, YAGO3 works titled like a site work, and films titled
// like a site work.
func (b *builder) films(books []Book) {
	kinds := []struct {
		re    *regexp.Regexp
		class string
	}{
		{regexp.MustCompile(`(?i)\bfilm\b|\bserial\b`), "Movie"},
		{regexp.MustCompile(`(?i)TV series|miniseries|TV program|franchise`), "TVSeries"},
		{regexp.MustCompile(`(?i)\bband\b|\bgroup\b`), "MusicGroup"},
		{regexp.MustCompile(`(?i)\balbum\b`), "MusicAlbum"},
		{regexp.MustCompile(`(?i)\bsong\b|\bsingle\b`), "MusicRecording"},
		{regexp.MustCompile(`(?i)video game`), "VideoGame"},
	}
	yearRE := regexp.MustCompile(`^(\d{4}) `)
	for _, e := range b.ents {
		dis := disambiguator(e)
		if dis == "" {
			continue
		}
		class := ""
		for _, k := range kinds {
			if k.re.MatchString(dis) {
				class = k.class
				break
			}
		}
		titled := b.titles[textnorm.Literal(label(e))]
		if class == "" || (class != "Movie" && !titled) || b.iris[e] {
			continue
		}
		t := iri(e)
		b.iris[e] = true
		b.add(t, rdfType, sch(class))
		b.add(t, rdfsLab, graph.NewLangString(label(e), "en"))
		y, ok := b.created[e]
		if !ok {
			if m := yearRE.FindStringSubmatch(dis); m != nil {
				y, _ = strconv.Atoi(m[1])
			}
		}
		if y != 0 {
			b.add(t, sch("dateCreated"), year(y))
		}
		if d, ok := b.directed[e]; ok && class == "Movie" {
			dt := iri(d)
			if !b.iris[d] {
				b.iris[d] = true
				b.add(dt, rdfType, sch("Person"))
				b.add(dt, rdfsLab, graph.NewLangString(label(d), "en"))
			}
			b.add(t, sch("director"), dt)
		}
		if titled {
			b.counts["YAGO3 works titled like a site work"]++
		} else {
			b.counts["YAGO3 films"]++
		}
	}
	seen := map[string]bool{}
	for _, bk := range books {
		key := textnorm.Literal(bk.Title)
		if seen[key] || b.rnd.Float64() >= 0.05 {
			seen[key] = true
			continue
		}
		seen[key] = true
		t := b.mint(bk.Title, "film")
		b.add(t, rdfType, sch("Movie"))
		b.add(t, rdfsLab, graph.NewLangString(bk.Title, "en"))
		y := 1930 + b.rnd.IntN(85)
		if bk.HasYear {
			y = min(bk.Year+1+b.rnd.IntN(40), 2017)
		}
		b.add(t, sch("dateCreated"), year(y))
		p, _ := b.randomPerson()
		b.add(t, sch("director"), p)
		b.counts["films titled like a site work"]++
	}
}

// WriteNT writes the KB as sorted N-Triples.
func (kb *KB) WriteNT(w io.Writer) error {
	return graph.WriteSorted(w, kb.Triples)
}

// WriteGold writes the site's books and their KB entities as TSV: list, row, title,
// first author, year, KB entity ("" when the KB does not have the work).
func (kb *KB) WriteGold(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "list\trow\ttitle\tauthor\tyear\twork")
	for _, bk := range kb.Books {
		a, y := "", ""
		if len(bk.Authors) > 0 {
			a = bk.Authors[0]
		}
		if bk.HasYear {
			y = strconv.Itoa(bk.Year)
		}
		fmt.Fprintf(bw, "%s\t%d\t%s\t%s\t%s\t%s\n", bk.List, bk.Row, bk.Title, a, y, bk.Work)
	}
	return bw.Flush()
}

// Match returns the site books a record with the given values stands for: those whose
// title is one of the values (after normalisation, with a trailing "[Series - n]"
// removed) and whose first author is part of a value; when several match (a series named
// like one of its books), those whose year is part of a value, if any.
func (kb *KB) Match(values []string) []int {
	kb.index()
	var out []int
	seen := map[int]bool{}
	for _, v := range values {
		for _, n := range []string{textnorm.Literal(v), textnorm.Literal(stripSeries(v))} {
			for _, i := range kb.byTitle[n] {
				if seen[i] {
					continue
				}
				bk := kb.Books[i]
				if len(bk.Authors) == 0 || authorIn(bk.Authors[0], values) {
					seen[i] = true
					out = append(out, i)
				}
			}
		}
	}
	slices.Sort(out)
	if len(out) > 1 {
		dated := slices.DeleteFunc(slices.Clone(out), func(i int) bool {
			bk := kb.Books[i]
			return !bk.HasYear || !slices.ContainsFunc(values, func(v string) bool { return strings.Contains(v, strconv.Itoa(bk.Year)) })
		})
		if len(dated) > 0 {
			out = dated
		}
	}
	return out
}

var seriesSuffix = regexp.MustCompile(`\s*\[[^\]]*\]\s*$`)

func stripSeries(v string) string { return seriesSuffix.ReplaceAllString(v, "") }

func authorIn(a string, values []string) bool {
	na := textnorm.Literal(a)
	for _, v := range values {
		if strings.Contains(" "+textnorm.Literal(v)+" ", " "+na+" ") {
			return true
		}
	}
	return false
}

func (kb *KB) index() {
	if kb.byTitle != nil {
		return
	}
	kb.byTitle = map[string][]int{}
	for i, bk := range kb.Books {
		n := textnorm.Literal(bk.Title)
		kb.byTitle[n] = append(kb.byTitle[n], i)
	}
}
