package schematest

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/internal/textnorm"
	"github.com/trawl-dev/trawl/records"
)

// Layout is the result-page layout of a fixture site.
type Layout string

// The fixture layouts.
const (
	// Table: a <table> with a <thead> header row (#, Title, Author, Year, Format, ISBN,
	// Price, Availability); one row per book; a rank column and a constant "In stock".
	Table Layout = "table"
	// List: a <ul> of <li> records; title link, "(Series #n)", "by Author", a composite
	// "Published: 1861 · Paperback" line, a "<b>ISBN:</b> …" label leaf, a price in
	// euros with a decimal comma, a per-page query echo and an "Add to cart" button.
	List Layout = "list"
	// Calibre: the calibre content server's /mobile listing: a thumbnail, then
	// "Title [Series - 1.0] by Author & Author" and "02 Jan, 1880 Tags=[…]" in two spans.
	Calibre Layout = "calibre"
)

// Site is a fixture deep-web site over the catalogue.
type Site struct {
	Layout Layout
	Books  []Book
	// Base is the site's base URL (no trailing slash).
	Base string
	// PerPage caps the records of a result page.
	PerPage int
}

// NewSite returns a site with the whole catalogue.
func NewSite(l Layout) *Site {
	return &Site{Layout: l, Books: Catalogue(), Base: "http://127.0.0.1:8901", PerPage: 20}
}

// Form returns the site's search form.
//
// Table and List: q (keyword box: every word must occur in the title or an author),
// author (text: the authors contain it), isbn (text: the ISBN contains the digits),
// note (a text field the server ignores), from (number: published in or after that
// year), format (select: Any, Paperback, Hardcover),
// sort (select: relevance, title, year; reorders only). Calibre: the real form (num,
// search, sort, order, library_id).
func (s *Site) Form() rundir.Form {
	idx := 0
	if s.Layout == Calibre {
		return rundir.Form{
			Index: &idx, XPath: "/html[1]/body[1]/div[1]/form[1]", Class: rundir.ClassSearch, Confidence: 0.95,
			KeywordFields: []string{"search"}, Method: "GET", Action: s.Base + "/mobile", PageURL: s.Base + "/mobile",
			Fields: []rundir.Field{
				{Name: "num", Tag: "select", Type: "select", Label: "Show", LabelSource: "preceding-text", Value: "25", Options: []rundir.Option{{Value: "5", Text: "5"}, {Value: "10", Text: "10"}, {Value: "25", Text: "25", Selected: true}, {Value: "100", Text: "100"}}},
				{Name: "search", ID: "s", Tag: "input", Type: "text", Label: "books matching", LabelSource: "preceding-text", Role: "keyword"},
				{Name: "sort", Tag: "select", Type: "select", Label: "sorted by", LabelSource: "preceding-text", Value: "date", Role: "sort", Options: []rundir.Option{{Value: "date", Text: "date", Selected: true}, {Value: "author", Text: "author"}, {Value: "title", Text: "title"}, {Value: "rating", Text: "rating"}, {Value: "size", Text: "size"}, {Value: "tags", Text: "tags"}, {Value: "series", Text: "series"}}},
				{Name: "order", Tag: "select", Type: "select", Value: "descending", Role: "sort", Options: []rundir.Option{{Value: "ascending", Text: "ascending"}, {Value: "descending", Text: "descending", Selected: true}}},
				{Name: "library_id", Tag: "input", Type: "hidden", Value: "library", Role: "hidden"},
				{Tag: "input", Type: "submit", Value: "Search", Submit: true, Role: "submit"},
			},
		}
	}
	return rundir.Form{
		Index: &idx, XPath: "/html[1]/body[1]/form[1]", Class: rundir.ClassSearch, Confidence: 0.97,
		KeywordFields: []string{"q"}, Method: "GET", Action: s.Base + "/search", PageURL: s.Base + "/",
		Fields: []rundir.Field{
			{Name: "q", Tag: "input", Type: "search", Label: "Keywords", LabelSource: "label-for", Role: "keyword"},
			{Name: "author", Tag: "input", Type: "text", Label: "Author", LabelSource: "label-for", MaxLength: 80},
			{Name: "isbn", Tag: "input", Type: "text", Label: "ISBN", LabelSource: "label-for", MaxLength: 20},
			{Name: "note", Tag: "input", Type: "text", Label: "Gift note", LabelSource: "label-for"},
			{Name: "from", Tag: "input", Type: "number", Label: "Published from", LabelSource: "label-for", Min: "1500", Max: "2100"},
			{Name: "format", Tag: "select", Type: "select", Label: "Format", LabelSource: "label-for", Options: []rundir.Option{{Value: "", Text: "Any format", Selected: true}, {Value: "pb", Text: "Paperback"}, {Value: "hc", Text: "Hardcover"}}},
			{Name: "sort", Tag: "select", Type: "select", Label: "Sort by", LabelSource: "label-for", Options: []rundir.Option{{Value: "rel", Text: "Relevance", Selected: true}, {Value: "title", Text: "Title"}, {Value: "year", Text: "Year"}}},
			{Tag: "button", Type: "submit", Value: "Search", Submit: true, Role: "submit"},
		},
	}
}

// words returns the folded words of s.
func words(s string) []string { return textnorm.Tokens(s) }

func hasAllWords(hay string, ws []string) bool {
	h := " " + strings.Join(words(hay), " ") + " "
	for _, w := range ws {
		if !strings.Contains(h, " "+w+" ") {
			return false
		}
	}
	return true
}

// Search returns the books matching the submitted values, in result order.
func (s *Site) Search(values map[string]string) []Book {
	var out []Book
	for _, b := range s.Books {
		if s.matches(b, values) {
			out = append(out, b)
		}
	}
	switch values["sort"] {
	case "title":
		slices.SortStableFunc(out, func(a, b Book) int { return strings.Compare(a.Title, b.Title) })
	case "year":
		slices.SortStableFunc(out, func(a, b Book) int { return a.Year - b.Year })
	}
	if s.Layout == Calibre && values["order"] == "descending" {
		slices.SortStableFunc(out, func(a, b Book) int { return b.Year - a.Year })
	}
	return out
}

func (s *Site) matches(b Book, v map[string]string) bool {
	if s.Layout == Calibre {
		q := words(v["search"])
		if len(q) == 0 {
			return true
		}
		// calibre ANDs the words; each may match any field.
		all := b.Title + " " + strings.Join(b.Authors, " ") + " " + b.Series + " " + strings.Join(b.Tags, " ")
		return hasAllWords(all, q)
	}
	if q := words(v["q"]); len(q) > 0 && !hasAllWords(b.Title+" "+strings.Join(b.Authors, " "), q) {
		return false
	}
	if a := words(v["author"]); len(a) > 0 && !hasAllWords(strings.Join(b.Authors, " "), a) {
		return false
	}
	if d := digits(v["isbn"]); d != "" && !strings.Contains(b.isbn13(), d) {
		return false
	}
	if f, err := strconv.Atoi(strings.TrimSpace(v["from"])); err == nil && b.Year < f {
		return false
	}
	switch v["format"] {
	case "pb":
		return b.Format == "Paperback"
	case "hc":
		return b.Format == "Hardcover"
	}
	return true
}

func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// isbn13 returns the book's ISBN-13 with a correct check digit.
func (b Book) isbn13() string {
	d := digits(b.ISBN)
	if len(d) < 12 {
		return d
	}
	d = d[:12]
	sum := 0
	for i := range 12 {
		v := int(d[i] - '0')
		if i%2 == 1 {
			v *= 3
		}
		sum += v
	}
	return d + strconv.Itoa((10-sum%10)%10)
}

// ISBNHyphenated is the ISBN as the table layout shows it: 978-0-439-02348-1.
func (b Book) ISBNHyphenated() string {
	d := b.isbn13()
	if len(d) != 13 {
		return d
	}
	return d[:3] + "-" + d[3:4] + "-" + d[4:7] + "-" + d[7:12] + "-" + d[12:]
}

// AuthorList joins the authors as the layout shows them.
func (s *Site) AuthorList(b Book) string {
	if s.Layout == Table {
		return strings.Join(b.Authors, ", ")
	}
	return strings.Join(b.Authors, " & ")
}

// SearchURL is the URL of the result page for the values.
func (s *Site) SearchURL(values map[string]string) string {
	q := url.Values{}
	for k, v := range values {
		q.Set(k, v)
	}
	path := "/search"
	if s.Layout == Calibre {
		path = "/mobile"
	}
	return s.Base + path + "?" + q.Encode()
}

// Page renders the first result page for the values.
func (s *Site) Page(values map[string]string) []byte {
	books := s.Search(values)
	total := len(books)
	if s.PerPage > 0 && len(books) > s.PerPage {
		books = books[:s.PerPage]
	}
	var b bytes.Buffer
	e := html.EscapeString
	switch s.Layout {
	case Table:
		b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Catalogue search</title></head><body>\n")
		b.WriteString(`<form action="/search" method="get"><label for="q">Keywords</label><input id="q" name="q" type="search" value="` + e(values["q"]) + `"><button>Search</button></form>` + "\n")
		if total == 0 {
			fmt.Fprintf(&b, "<p class=\"empty\">No books match &ldquo;%s&rdquo;.</p>\n</body></html>\n", e(values["q"]))
			return b.Bytes()
		}
		fmt.Fprintf(&b, "<p class=\"summary\">Showing 1 to %d of %d results</p>\n", len(books), total)
		b.WriteString("<table id=\"results\" class=\"results\">\n<thead><tr><th>#</th><th>Title</th><th>Author</th><th>Year</th><th>Format</th><th>ISBN</th><th>Price</th><th>Availability</th></tr></thead>\n<tbody>\n")
		for i, bk := range books {
			fmt.Fprintf(&b, "<tr class=\"row r%d\"><td>%d.</td><td><a href=\"/book/%d\">%s</a></td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>$%.2f</td><td>In stock</td></tr>\n",
				i%2, i+1, bk.ID, e(bk.Title), e(s.AuthorList(bk)), bk.Year, bk.Format, bk.ISBNHyphenated(), bk.Price)
		}
		b.WriteString("</tbody></table>\n</body></html>\n")
	case List:
		b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Bookshop</title></head><body>\n<div id=\"main\">\n")
		if total == 0 {
			fmt.Fprintf(&b, "<div class=\"noresults\">Sorry, nothing found for <b>%s</b>.</div>\n</div></body></html>\n", e(values["q"]))
			return b.Bytes()
		}
		fmt.Fprintf(&b, "<h2>%d books</h2>\n<ul class=\"results\">\n", total)
		echo := strings.TrimSpace(values["q"] + " " + values["author"])
		if echo == "" {
			echo = "all books"
		}
		for i, bk := range books {
			fmt.Fprintf(&b, "<li class=\"result item-%d\">\n  <h3 class=\"title\"><a href=\"%s/b/%d\">%s</a></h3>\n", i+1, s.Base, bk.ID, e(bk.Title))
			if bk.Series != "" {
				fmt.Fprintf(&b, "  <span class=\"series\">(%s #%s)</span>\n", e(bk.Series), strconv.FormatFloat(bk.SeriesIndex, 'f', -1, 64))
			}
			fmt.Fprintf(&b, "  <div class=\"byline\">by %s</div>\n", e(s.AuthorList(bk)))
			fmt.Fprintf(&b, "  <div class=\"meta\">Published: %d · %s</div>\n", bk.Year, bk.Format)
			fmt.Fprintf(&b, "  <div class=\"isbn\"><b>ISBN:</b> %s</div>\n", bk.isbn13())
			fmt.Fprintf(&b, "  <div class=\"price\">%s\u00a0€</div>\n", strings.Replace(fmt.Sprintf("%.2f", bk.Price), ".", ",", 1))
			fmt.Fprintf(&b, "  <span class=\"hint\">Found for: %s</span>\n  <button class=\"buy\">Add to cart</button>\n</li>\n", e(echo))
		}
		b.WriteString("</ul>\n</div></body></html>\n")
	case Calibre:
		b.WriteString("<html><head><title>calibre library</title></head><body>\n<div id=\"search_box\">\n")
		b.WriteString(`<form method="get" action="/mobile" accept-charset="UTF-8">Show <select name="num"><option value="25" SELECTED>25</option></select> books matching <input name="search" id="s" value="` + e(values["search"]) + `"> <input id="go" type="submit" value="Search"></form>` + "\n</div>\n")
		fmt.Fprintf(&b, "<div class=\"navigation\">\n<span style=\"display: block; text-align: center;\">Books 1 to %d of %d</span><table class=\"buttons\"><tr><td class=\"button\" style=\"text-align:left\"></td><td class=\"button\" style=\"text-align:right\"></td></tr></table>\n</div>\n", len(books), total)
		b.WriteString("<table id=\"listing\">\n")
		for _, bk := range books {
			line := e(bk.Title)
			if bk.Series != "" {
				line += fmt.Sprintf(" [%s - %.1f]", e(bk.Series), bk.SeriesIndex)
			}
			line += "  by " + e(s.AuthorList(bk))
			fmt.Fprintf(&b, "<tr><td><img type=\"image/jpeg\" border=\"0\" src=\"/get/thumb/%d/library\" class=\"thumbnail\"></td>\n<td><div class=\"data-container\">\n<span class=\"first-line\">%s</span><span class=\"second-line\">02 Jan, %d Tags=[%s] </span>\n</div></td></tr>\n",
				bk.ID+400, line, bk.Year, e(strings.Join(bk.Tags, ", ")))
		}
		b.WriteString("</table>\n</body></html>\n")
	}
	return b.Bytes()
}

// RecordXPath is the (unindexed) location of the records on a result page.
func (s *Site) RecordXPath() string {
	switch s.Layout {
	case Table:
		return "/html/body/table/tbody/tr"
	case List:
		return "/html/body/div/ul/li"
	}
	return "/html/body/table/tbody/tr"
}

// Submitter returns a fake prober: it submits to the site in memory and isolates the
// records of the response with Records. It counts the submissions in *n when n is not
// nil. positions must be the setting the run was written with.
func (s *Site) Submitter(n *int, positions bool) func(ctx context.Context, values map[string]string) ([]records.Record, error) {
	return func(ctx context.Context, values map[string]string) ([]records.Record, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if n != nil {
			*n++
		}
		return Records(s.Page(values), "resubmission", s.SearchURL(values), s.RecordXPath(), positions)
	}
}
