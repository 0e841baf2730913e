package testsites

import (
	"embed"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/books.tsv data/films.tsv
var dataFS embed.FS

// book is one row of data/books.tsv plus the synthetic shop attributes.
type book struct {
	ID          int
	Title       string
	Series      string
	SeriesIndex string
	Author      string
	Authors     string
	Year        string
	Language    string
	Rating      string
	Ratings     int
	ISBN        string
	Price       string // synthetic
	Format      string // synthetic
}

// film is one row of data/films.tsv.
type film struct {
	ID       int
	Title    string
	Year     string
	Director string
	Country  string
	Genre    string
}

// Formats are the synthetic book formats.
var Formats = []string{"Paperback", "Hardcover", "Ebook"}

var (
	loadOnce sync.Once
	books    []book
	films    []film
)

func load() {
	loadOnce.Do(func() {
		rows := readTSV("data/books.tsv", 11)
		for _, r := range rows {
			id, err := strconv.Atoi(r[0])
			if err != nil {
				panic(fmt.Sprintf("testsites: data/books.tsv: bad id %q", r[0])) // embedded data: a build defect
			}
			n, _ := strconv.Atoi(r[9])
			b := book{ID: id, Title: r[1], Series: r[2], SeriesIndex: r[3], Author: r[4], Authors: r[5],
				Year: r[6], Language: r[7], Rating: r[8], Ratings: n, ISBN: r[10]}
			h := hash(r[0])
			b.Price = fmt.Sprintf("$%d.%s", 4+h%28, []string{"99", "49", "95"}[h/28%3])
			b.Format = Formats[(h/7)%3]
			books = append(books, b)
		}
		for _, r := range readTSV("data/films.tsv", 6) {
			id, err := strconv.Atoi(r[0])
			if err != nil {
				panic(fmt.Sprintf("testsites: data/films.tsv: bad id %q", r[0]))
			}
			films = append(films, film{ID: id, Title: r[1], Year: r[2], Director: r[3], Country: r[4], Genre: r[5]})
		}
	})
}

func readTSV(name string, cols int) [][]string {
	data, err := dataFS.ReadFile(name)
	if err != nil {
		panic("testsites: embedded " + name + " missing: " + err.Error())
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i == 0 {
			continue // header
		}
		f := strings.Split(line, "\t")
		if len(f) != cols {
			panic(fmt.Sprintf("testsites: %s:%d: %d columns, want %d", name, i+1, len(f), cols))
		}
		rows = append(rows, f)
	}
	return rows
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// bookValue returns the named attribute of a book as the sites display it.
func (b book) value(attr string) string {
	switch attr {
	case "title":
		return b.Title
	case "series":
		if b.Series == "" {
			return ""
		}
		return b.Series + " #" + b.SeriesIndex
	case "author":
		return b.Author
	case "authors":
		return b.Authors
	case "year":
		return b.Year
	case "language":
		return b.Language
	case "rating":
		return b.Rating
	case "isbn":
		return b.ISBN
	case "price":
		return b.Price
	case "format":
		return b.Format
	}
	panic("testsites: unknown book attribute " + attr)
}

func (f film) value(attr string) string {
	switch attr {
	case "title":
		return f.Title
	case "year":
		return f.Year
	case "director":
		return f.Director
	case "country":
		return f.Country
	case "genre":
		return f.Genre
	}
	panic("testsites: unknown film attribute " + attr)
}

// bookRecords returns the first n books (all when n ≤ 0) as records with the attributes.
func bookRecords(n int, attrs []string) ([]Record, []book) {
	load()
	bs := books
	if n > 0 && n < len(bs) {
		bs = bs[:n]
	}
	recs := make([]Record, len(bs))
	for i, b := range bs {
		v := make(map[string]string, len(attrs))
		for _, a := range attrs {
			v[a] = b.value(a)
		}
		recs[i] = Record{ID: "book-" + strconv.Itoa(b.ID), Values: v}
	}
	return recs, bs
}

func filmRecords(attrs []string) ([]Record, []film) {
	load()
	recs := make([]Record, len(films))
	for i, f := range films {
		v := make(map[string]string, len(attrs))
		for _, a := range attrs {
			v[a] = f.value(a)
		}
		recs[i] = Record{ID: "film-" + strconv.Itoa(f.ID), Values: v}
	}
	return recs, films
}
