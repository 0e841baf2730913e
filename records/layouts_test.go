package records

import (
	"fmt"
	"strings"
	"testing"
)

// TestResultLayouts guards the response pages trawl is built for against the list
// filters learnt on the NEXT-EVAL sample: result lists drawn in common ways (links with
// fields, table rows, titles in headings that are no links, cards, articles, items with
// a disclosure toggle, single paragraphs that quote the query, name–value pairs of a
// title and a year, web search results, products with ratings, forum threads, job-like
// cards, results with a compare box), queried with a term, over two pages of one
// template and over one page, with the best region and with every region. Every record
// is found.
func TestResultLayouts(t *testing.T) {
	type book struct {
		title, author string
		year          int
	}
	shelf := map[string][]book{
		"dickens": {{"Bleak House", "Charles Dickens", 1853}, {"Hard Times", "Charles Dickens", 1854}, {"Little Dorrit", "Charles Dickens", 1857}, {"Our Mutual Friend", "Charles Dickens", 1865}, {"Great Expectations", "Charles Dickens", 1861}},
		"darwin":  {{"Origin of Species", "Charles Darwin", 1859}, {"Voyage of the Beagle", "Charles Darwin", 1839}, {"Descent of Man", "Charles Darwin", 1871}},
	}
	list := [2]string{`<div class="results">`, `</div>`}
	themes := []string{"London", "poverty", "law", "childhood", "industry", "family", "debt", "prison", "inheritance", "satire", "romance"}
	table := [2]string{`<table class="results">`, `</table>`}
	layouts := []struct {
		name string
		wrap [2]string
		item func(b book, i int) string
	}{
		{"list items with a link", [2]string{`<ul class="results">`, `</ul>`}, func(b book, i int) string {
			return fmt.Sprintf(`<li><a href="/b/%d">%s</a> <span>%s</span> <span>%d</span></li>`, i, b.title, b.author, b.year)
		}},
		{"table rows", table, func(b book, i int) string {
			return fmt.Sprintf(`<tr><td><a href="/b/%d">%s</a></td><td>%s</td><td>%d</td></tr>`, i, b.title, b.author, b.year)
		}},
		{"table rows under column headers", [2]string{`<table class="results"><tr><th>Title</th><th>Author</th><th>Year</th></tr>`, `</table>`}, func(b book, i int) string {
			return fmt.Sprintf(`<tr><th>%s</th><td>%s</td><td>%d</td></tr>`, b.title, b.author, b.year)
		}},
		{"table rows of headings", table, func(b book, i int) string {
			return fmt.Sprintf(`<tr><td><h3>%s</h3></td><td><h4>%s</h4></td></tr>`, b.title, b.author)
		}},
		{"a heading and a paragraph", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="r"><h3>%s</h3><p>A novel by %s published in %d.</p></div>`, b.title, b.author, b.year)
		}},
		{"a title and an author in headings", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="r"><h2>%s</h2><h3>%s</h3><p>%d</p></div>`, b.title, b.author, b.year)
		}},
		{"cards", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="card"><img src="/c/%d.jpg" alt="%s"><h3><a href="/b/%d">%s</a></h3><span class="price">$%d</span></div>`, i, b.title, i, b.title, 10+i)
		}},
		{"articles", list, func(b book, i int) string {
			return fmt.Sprintf(`<article><h2><a href="/b/%d">%s</a></h2><p>%s wrote it in %d; a story of London.</p><footer>%s</footer></article>`, i, b.title, b.author, b.year, b.author)
		}},
		{"a disclosure toggle in each item", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="r"><a href="/b/%d">%s</a> <span>%s</span><button aria-expanded="false">Details</button><div hidden>%d</div></div>`, i, b.title, b.author, b.year)
		}},
		{"a paragraph that quotes the query", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="q"><p>“%s” is a work by %s from %d.</p></div>`, b.title, b.author, b.year)
		}},
		{"name–value pairs of a title and a year", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="r"><b>%s</b><span>%d</span></div>`, b.title, b.year)
		}},
		{"a web search result: link, address, snippet", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="g"><a href="https://books.example/%d"><h3>%s</h3></a><cite>books.example › %d</cite><div class="s">%s's novel of %d, with notes and a reading guide.</div></div>`, i, b.title, i, b.author, b.year)
		}},
		{"a product with a rating and a price", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="p"><a href="/p/%d"><img src="/p/%d.jpg" alt=""></a><a class="t" href="/p/%d">%s</a><div class="rating" aria-label="4 of 5"><span>★</span><span>★</span><span>★</span><span>★</span><span>☆</span></div><span class="price">$%d.99</span><button>Add to basket</button></div>`, i, i, i, b.title, 9+i)
		}},
		{"forum threads", [2]string{`<table class="threads"><thead><tr><th>Topic</th><th>Started by</th><th>Replies</th></tr></thead><tbody>`, `</tbody></table>`}, func(b book, i int) string {
			return fmt.Sprintf(`<tr><td><a href="/t/%d">Reading %s together</a></td><td>%s fan</td><td>%d</td></tr>`, i, b.title, b.author, 3+i)
		}},
		{"job-like cards with a company, a place and a date", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="job"><h2 class="title"><a href="/j/%d">%s</a></h2><div class="company">%s</div><div class="place">London</div><time datetime="%d-01-01">%d</time></div>`, i, b.title, b.author, b.year, b.year)
		}},
		{"image results: a linked picture and a caption", list, func(b book, i int) string {
			return fmt.Sprintf(`<figure class="im"><a href="/i/%d"><img src="/i/%d.jpg" alt="%s"></a><figcaption>%s by %s</figcaption></figure>`, i, i, b.title, b.title, b.author)
		}},
		{"image results, the third without a caption", list, func(b book, i int) string {
			if i == 2 {
				return fmt.Sprintf(`<figure class="im"><a href="/i/%d"><img src="/i/%d.jpg" alt="%s"></a></figure>`, i, i, b.title)
			}
			return fmt.Sprintf(`<figure class="im"><a href="/i/%d"><img src="/i/%d.jpg" alt="%s"></a><figcaption>%s by %s</figcaption></figure>`, i, i, b.title, b.title, b.author)
		}},
		{"a linked title, a snippet and ten linked tags", list, func(b book, i int) string {
			tags := ""
			for k := range 10 {
				tags += fmt.Sprintf(`<a class="tag" href="/t/%d/%d">%s</a> `, i, k, themes[(i+k)%len(themes)])
			}
			return fmt.Sprintf(`<div class="r"><a href="/b/%d">%s</a><p>A novel by %s.</p><div class="tags">%s</div></div>`, i, b.title, b.author, tags)
		}},
		{"results with a checkbox to compare", list, func(b book, i int) string {
			return fmt.Sprintf(`<div class="r"><label><input type="checkbox" name="cmp" value="%d"> Compare</label><a href="/b/%d">%s</a> <span>%s</span> <span>%d</span></div>`, i, i, b.title, b.author, b.year)
		}},
	}
	for _, lt := range layouts {
		var pages []Page
		for _, q := range []string{"dickens", "darwin"} {
			var b strings.Builder
			b.WriteString(`<html><body><header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/help">Help</a></nav></header>` +
				`<h1>Search</h1><form><input name="q" value="` + q + `"></form><p>Results for ` + q + `</p>` + lt.wrap[0])
			for i, bk := range shelf[q] {
				b.WriteString(lt.item(bk, i))
			}
			b.WriteString(lt.wrap[1] + `<footer><a href="/c">Contact</a></footer></body></html>`)
			pages = append(pages, Page{Name: q, HTML: []byte(b.String()), Terms: []string{q}})
		}
		for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
			w, got := recordXPaths(t, pages, regions, "")
			if len(got) != 8 {
				t.Errorf("%s, %s, two pages: %d records, want 8 (xpath %s)", lt.name, regions, len(got), w.XPath)
			}
			w, got = recordXPaths(t, pages[:1], regions, "")
			if len(got) != 5 {
				t.Errorf("%s, %s, one page: %d records, want 5 (xpath %s)", lt.name, regions, len(got), w.XPath)
			}
		}
	}
}
