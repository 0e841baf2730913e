package align

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/graph"
)

// The enrichment fixture: the labeled graph of a book search form (thesis ch. 3 §4, the
// Amazon advanced book search) and a small reference KB in YAGO 4.5 vocabulary
// (rdfs:label@en, schema:author, schema:datePublished, schema:Book ⊆ schema:CreativeWork
// ⊆ schema:Thing, schema:Person). The facts are real-world facts (titles, authors, years,
// publishers); two made-up books by made-up authors stand for the long tail the KB
// lacks. The KB holds traps: a film with a book's title, two John Williams and two
// William Gibsons (only one of the first is an author, both of the second are), a city
// called Homer, and an author who is a person in the KB but has no book there.

// fixSource is the source of the fixture's labeled graph.
const fixSource = "https://trawl.invalid/src/books.example-search-1a2b3c4d"

func fixPred(name string) string { return fixSource + "/p/" + name }

func yago(id string) graph.Term { return graph.NewIRI(yagoNS + id) }

func schemaIRI(local string) graph.Term { return graph.NewIRI(schemaNS + local) }

func gYear(y string) graph.Term { return graph.NewTyped(y, graph.XSD+"gYear") }

type fixPerson struct{ id, label, born, class string }

type fixWork struct {
	id, label, year, class string
	authors                []string
}

var fixPeople = []fixPerson{
	{"Kazuo_Ishiguro", "Kazuo Ishiguro", "1954", "Person"},
	{"Ian_McEwan", "Ian McEwan", "1948", "Person"},
	{"Hilary_Mantel", "Hilary Mantel", "1952", "Person"},
	{"Margaret_Atwood", "Margaret Atwood", "1939", "Person"},
	{"Yann_Martel", "Yann Martel", "1963", "Person"},
	{"Cormac_McCarthy", "Cormac McCarthy", "1933", "Person"},
	{"Zadie_Smith", "Zadie Smith", "1975", "Person"},
	{"Jeffrey_Eugenides", "Jeffrey Eugenides", "1960", "Person"},
	{"Jonathan_Franzen", "Jonathan Franzen", "1959", "Person"},
	{"John_Williams_(author)", "John Williams", "1922", "Person"},
	{"John_Williams", "John Williams", "1932", "Person"}, // the composer: no book
	{"William_Gibson", "William Gibson", "1948", "Person"},
	{"William_Gibson_(playwright)", "William Gibson", "1914", "Person"},
	{"Toni_Morrison", "Toni Morrison", "1931", "Person"},
	{"Salman_Rushdie", "Salman Rushdie", "1947", "Person"},
	{"John_Banville", "John Banville", "1945", "Person"},
	{"J._M._Coetzee", "J. M. Coetzee", "1940", "Person"},
	{"Peter_Carey_(novelist)", "Peter Carey", "1943", "Person"},
	{"Joe_Wright", "Joe Wright", "1972", "Person"},
	{"Ang_Lee", "Ang Lee", "1954", "Person"},
	{"Bernardine_Evaristo", "Bernardine Evaristo", "1959", "Person"}, // no book in the KB
	{"Homer,_Alaska", "Homer", "", "City"},
	{"Paris", "Paris", "", "City"},
}

var fixWorks = []fixWork{
	{"Never_Let_Me_Go_(novel)", "Never Let Me Go", "2005", "Book", []string{"Kazuo_Ishiguro"}},
	{"The_Remains_of_the_Day", "The Remains of the Day", "1989", "Book", []string{"Kazuo_Ishiguro"}},
	{"Atonement_(novel)", "Atonement", "2001", "Book", []string{"Ian_McEwan"}},
	{"Saturday_(novel)", "Saturday", "2005", "Book", []string{"Ian_McEwan"}},
	{"Wolf_Hall", "Wolf Hall", "2009", "Book", []string{"Hilary_Mantel"}},
	{"Bring_Up_the_Bodies", "Bring Up the Bodies", "2012", "Book", []string{"Hilary_Mantel"}},
	{"The_Blind_Assassin", "The Blind Assassin", "2000", "Book", []string{"Margaret_Atwood"}},
	{"The_Handmaid's_Tale", "The Handmaid's Tale", "1985", "Book", []string{"Margaret_Atwood"}},
	{"Life_of_Pi", "Life of Pi", "2001", "Book", []string{"Yann_Martel"}},
	{"The_Road", "The Road", "2006", "Book", []string{"Cormac_McCarthy"}},
	{"Blood_Meridian", "Blood Meridian", "1985", "Book", []string{"Cormac_McCarthy"}},
	{"White_Teeth", "White Teeth", "2000", "Book", []string{"Zadie_Smith"}},
	{"Middlesex_(novel)", "Middlesex", "2002", "Book", []string{"Jeffrey_Eugenides"}},
	{"The_Corrections", "The Corrections", "2001", "Book", []string{"Jonathan_Franzen"}},
	{"Stoner_(novel)", "Stoner", "1965", "Book", nil}, // the KB lacks its author
	{"Augustus_(Williams_novel)", "Augustus", "1972", "Book", []string{"John_Williams_(author)"}},
	{"Neuromancer", "Neuromancer", "1984", "Book", []string{"William_Gibson"}},
	{"The_Miracle_Worker", "The Miracle Worker", "1959", "CreativeWork", []string{"William_Gibson_(playwright)"}},
	{"Beloved_(novel)", "Beloved", "1987", "Book", []string{"Toni_Morrison"}},
	{"Midnight's_Children", "Midnight's Children", "1981", "Book", []string{"Salman_Rushdie"}},
	{"The_Sea_(novel)", "The Sea", "", "Book", []string{"John_Banville"}}, // the KB lacks its year
	{"Disgrace_(novel)", "Disgrace", "1999", "Book", []string{"J._M._Coetzee"}},
	{"Oscar_and_Lucinda", "Oscar and Lucinda", "1988", "Book", []string{"Peter_Carey_(novelist)"}},
	{"Atonement_(film)", "Atonement", "2007", "Movie", nil},
	{"Life_of_Pi_(film)", "Life of Pi", "2012", "Movie", nil},
}

// fixKB returns the reference KB's triples.
func fixKB() []graph.Triple {
	typ, sub := graph.NewIRI(graph.RDFType), graph.NewIRI(graph.SubClassOf)
	label := graph.NewIRI(graph.RDFSLabel)
	ts := []graph.Triple{
		{S: schemaIRI("Book"), P: sub, O: schemaIRI("CreativeWork")},
		{S: schemaIRI("Movie"), P: sub, O: schemaIRI("CreativeWork")},
		{S: schemaIRI("CreativeWork"), P: sub, O: schemaIRI("Thing")},
		{S: schemaIRI("Person"), P: sub, O: schemaIRI("Thing")},
		{S: schemaIRI("City"), P: sub, O: schemaIRI("Place")},
		{S: schemaIRI("Place"), P: sub, O: schemaIRI("Thing")},
		{S: schemaIRI("Organization"), P: sub, O: schemaIRI("Thing")},
		// One publisher fact, so that the KB has the relation schema:publisher.
		{S: yago("Fourth_Estate"), P: typ, O: schemaIRI("Organization")},
		{S: yago("Fourth_Estate"), P: label, O: graph.NewLangString("Fourth Estate", "en")},
		{S: yago("Wolf_Hall"), P: schemaIRI("publisher"), O: yago("Fourth_Estate")},
		{S: yago("Atonement_(film)"), P: schemaIRI("director"), O: yago("Joe_Wright")},
		{S: yago("Life_of_Pi_(film)"), P: schemaIRI("director"), O: yago("Ang_Lee")},
	}
	for _, p := range fixPeople {
		ts = append(ts,
			graph.Triple{S: yago(p.id), P: typ, O: schemaIRI(p.class)},
			graph.Triple{S: yago(p.id), P: label, O: graph.NewLangString(p.label, "en")})
		if p.born != "" {
			ts = append(ts, graph.Triple{S: yago(p.id), P: schemaIRI("birthDate"), O: gYear(p.born)})
		}
	}
	for _, w := range fixWorks {
		ts = append(ts,
			graph.Triple{S: yago(w.id), P: typ, O: schemaIRI(w.class)},
			graph.Triple{S: yago(w.id), P: label, O: graph.NewLangString(w.label, "en")})
		if w.year != "" {
			ts = append(ts, graph.Triple{S: yago(w.id), P: schemaIRI("datePublished"), O: gYear(w.year)})
		}
		for _, a := range w.authors {
			ts = append(ts, graph.Triple{S: yago(w.id), P: schemaIRI("author"), O: yago(a)})
		}
	}
	return ts
}

// fixRecord is one record of the search form, as the labeled graph has it.
type fixRecord struct {
	title, author, year, publisher, price, avail string
	// kb is the KB entity the record describes ("" for a book the KB lacks).
	kb string
}

var fixRecords = []fixRecord{
	// Books the KB has, with the variants of a result page.
	{"Never Let Me Go", "Kazuo Ishiguro", "2005", "Faber and Faber", "9.99", "In Stock", "Never_Let_Me_Go_(novel)"},
	{"The Remains of the Day (Vintage International)", "Kazuo Ishiguro", "1989", "Vintage", "14.00", "In Stock", "The_Remains_of_the_Day"},
	{"ATONEMENT", "Ian McEwan", "2001", "Jonathan Cape", "12.50", "In Stock", "Atonement_(novel)"},
	{"Wolf Hall", "Hilary Mantel", "2009", "Fourth Estate", "11.99", "Out of stock", "Wolf_Hall"},
	{"Bring Up the Bodies", "Hilary Mantel", "2012", "Fourth Estate", "10.99", "In Stock", "Bring_Up_the_Bodies"},
	{"The Blind Assassin", "Margaret Atwood", "2000", "McClelland & Stewart", "16.99", "In Stock", "The_Blind_Assassin"},
	{"The Handmaid's Tale", "Atwood, Margaret", "1985", "McClelland and Stewart", "8.99", "In Stock", "The_Handmaid's_Tale"},
	// The year of the edition on sale, not of first publication (2001).
	{"Life of Pi", "Yann Martel", "2002", "Canongate", "13.95", "In Stock", "Life_of_Pi"},
	{"The Road", "Cormac McCarthy", "2006", "Alfred A. Knopf", "15.00", "Out of stock", "The_Road"},
	{"White Teeth", "Zadie Smith", "2000", "Hamish Hamilton", "9.50", "In Stock", "White_Teeth"},
	{"The Corrections", "Jonathan Franzen", "2001", "Farrar, Straus and Giroux", "17.00", "In Stock", "The_Corrections"},
	{"Stoner", "John Williams", "1965", "Viking Press", "12.00", "In Stock", "Stoner_(novel)"},
	{"The Sea", "John Banville", "2005", "Picador", "10.00", "In Stock", "The_Sea_(novel)"},
	{"Beloved", "Toni Morrison", "1987", "Alfred A. Knopf", "11.00", "In Stock", "Beloved_(novel)"},
	{"Disgrace", "J.M. Coetzee", "1999", "Secker & Warburg", "9.99", "In Stock", "Disgrace_(novel)"},
	{"Midnight's Children", "Salman Rushdie", "1981", "Jonathan Cape", "12.99", "Out of stock", "Midnight's_Children"},
	// Books the KB lacks.
	{"Klara and the Sun", "Kazuo Ishiguro", "2021", "Faber and Faber", "20.00", "In Stock", ""},
	{"The Testaments", "Margaret Atwood", "2019", "McClelland & Stewart", "22.00", "In Stock", ""},
	{"Machines Like Me", "Ian McEwan", "2019", "Jonathan Cape", "18.99", "In Stock", ""},
	{"The Mirror & the Light", "Hilary Mantel", "2020", "Fourth Estate", "25.00", "Out of stock", ""},
	{"Agency", "William Gibson", "2020", "Berkley", "19.00", "In Stock", ""},
	{"Cloud Atlas", "David Mitchell", "2004", "Sceptre", "9.99", "In Stock", ""},
	{"Girl, Woman, Other", "Bernardine Evaristo", "2019", "Hamish Hamilton", "14.99", "In Stock", ""},
	{"The Odyssey", "Homer", "", "Penguin Classics", "7.99", "In Stock", ""},
	{"The Velvet Orchards", "Mara Halloway", "2018", "Quercus", "8.99", "In Stock", ""},
	{"The Quiet Cartographer", "Mara Halloway", "2021", "Quercus", "9.99", "Out of stock", ""},
}

// fixRecordIRI is the entity of a record: a hash of its identity text, as the labeled
// graph mints it.
func fixRecordIRI(r fixRecord) graph.Term {
	sum := sha256.Sum256([]byte(strings.ToLower(r.title + " " + r.author)))
	return graph.NewIRI(fixSource + "/rec/" + hex.EncodeToString(sum[:8]))
}

// fixGraph returns the labeled graph: the record stars and the description of the
// class and of the predicates (as graph.nt has them).
func fixGraph() []graph.Triple {
	typ, label := graph.NewIRI(graph.RDFType), graph.NewIRI(graph.RDFSLabel)
	class := graph.NewIRI(fixSource + "/Record")
	p := func(n string) graph.Term { return graph.NewIRI(fixPred(n)) }
	ts := []graph.Triple{{S: class, P: typ, O: graph.NewIRI(graph.RDFS + "Class")}}
	for _, f := range []struct{ name, label string }{
		{"title", "Title"}, {"author", "Author"}, {"year", "Year"}, {"publisher", "Publisher"}, {"price", "Price"}, {"availability", ""},
	} {
		ts = append(ts,
			graph.Triple{S: p(f.name), P: typ, O: graph.NewIRI(rdfProperty)},
			graph.Triple{S: p(f.name), P: graph.NewIRI(graph.RDFS + "domain"), O: class})
		if f.label != "" {
			ts = append(ts, graph.Triple{S: p(f.name), P: label, O: graph.NewLiteral(f.label)})
		}
	}
	for _, r := range fixRecords {
		e := fixRecordIRI(r)
		ts = append(ts,
			graph.Triple{S: e, P: typ, O: class},
			graph.Triple{S: e, P: p("title"), O: graph.NewLiteral(r.title)},
			graph.Triple{S: e, P: p("author"), O: graph.NewLiteral(r.author)},
			graph.Triple{S: e, P: p("publisher"), O: graph.NewLiteral(r.publisher)},
			graph.Triple{S: e, P: p("price"), O: graph.NewTyped(r.price, graph.XSD+"decimal")},
			graph.Triple{S: e, P: p("availability"), O: graph.NewLiteral(r.avail)})
		if r.year != "" {
			ts = append(ts, graph.Triple{S: e, P: p("year"), O: gYear(r.year)})
		}
	}
	return ts
}

// fixFeatureLabels is the input–output mapping of the form: the record features that map
// to a form field, with the features' labels (column headers). Price and availability
// map to none.
func fixFeatureLabels() map[string]string {
	return map[string]string{
		fixPred("title"):     "Title",
		fixPred("author"):    "Author",
		fixPred("year"):      "Publication year",
		fixPred("publisher"): "Publisher",
	}
}

// fixAlign builds both KBs and aligns them with the default options.
func fixAlign(t testing.TB) (*graph.Memory, *graph.Memory, *Result) {
	t.Helper()
	kb1, err := graph.NewMemory(fixGraph())
	if err != nil {
		t.Fatal(err)
	}
	kb2, err := graph.NewMemory(fixKB())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Align(t.Context(), kb1, kb2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return kb1, kb2, res
}

func fixEnrichOptions() EnrichOptions {
	o := DefaultEnrichOptions()
	o.Source = fixSource
	o.RecordClass = fixSource + "/Record"
	o.FeatureLabels = fixFeatureLabels()
	return o
}
