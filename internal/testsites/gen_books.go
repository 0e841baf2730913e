//go:build ignore

// gen_books derives data/books.tsv from the goodbooks-10k CSV kept with the calibre test
// site (../shared/sites/calibre/data). It keeps the first N rows (the most rated books)
// and the columns the test sites show; see data/SOURCE.md for the attribution.
//
//	go run gen_books.go -in /work/shared/sites/calibre/data/goodbooks-10k-books-first3000.csv -n 1500 > data/books.tsv
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"strconv"
	"strings"
)

var seriesRE = regexp.MustCompile(`^(.*?)\s*\(([^()]+?),?\s*#\s*([^()]+)\)$`)

var languages = map[string]string{
	"eng": "English", "en-US": "English", "en-GB": "English", "en-CA": "English",
	"spa": "Spanish", "fre": "French", "ara": "Arabic", "nl": "Dutch", "ger": "German",
	"ita": "Italian", "por": "Portuguese", "jpn": "Japanese",
}

func main() {
	in := flag.String("in", "", "goodbooks-10k books CSV")
	n := flag.Int("n", 1500, "rows to keep")
	flag.Parse()
	f, err := os.Open(*in)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	head, err := r.Read()
	if err != nil {
		log.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	w := os.Stdout
	fmt.Fprintln(w, "id\ttitle\tseries\tseries_index\tauthor\tauthors\tyear\tlanguage\trating\tratings\tisbn")
	for i := 0; i < *n; i++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		get := func(k string) string { return strings.TrimSpace(rec[col[k]]) }
		title, series, idx := get("title"), "", ""
		if m := seriesRE.FindStringSubmatch(title); m != nil {
			title, series, idx = strings.TrimSpace(m[1]), strings.TrimSpace(m[2]), strings.TrimSpace(m[3])
		}
		authors := get("authors")
		author := strings.TrimSpace(strings.Split(authors, ",")[0])
		year := ""
		if y, err := strconv.ParseFloat(get("original_publication_year"), 64); err == nil {
			year = strconv.Itoa(int(y))
		}
		isbn := get("isbn")
		if isbn != "" && len(isbn) < 10 {
			isbn = strings.Repeat("0", 10-len(isbn)) + isbn // the CSV lost leading zeros
		}
		clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			get("book_id"), clean(title), clean(series), idx, clean(author), clean(authors), year,
			languages[get("language_code")], get("average_rating"), get("ratings_count"), isbn)
	}
}
