package records

import (
	"strconv"
	"strings"
	"testing"
)

// TestDocumentParts checks the lists that are parts of a document rather than records
// (sectionList, questionItem with answeredInPlace, paragraphList), each with a
// counter-example that must stay a list of records.
func TestDocumentParts(t *testing.T) {
	repeat := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i))
		}
		return b.String()
	}
	cards := repeat(4, func(i int) string {
		return `<a href="/course/` + strconv.Itoa(i) + `"><img src="c.jpg"><h3>Course ` + strconv.Itoa(i) + `</h3></a>`
	})
	tests := []struct {
		name   string
		body   string
		parent string // absolute XPath of the list's parent
		want   string // nav reason ("" for records)
	}{
		{"sections of a page builder: titled sections and FAQ entries", `<div class="blocks">` +
			`<div class="block"><div><h3>Recommended courses</h3></div><div class="columns">` + cards + `</div></div>` +
			`<div class="block"><div><h2>Algebra FAQs</h2></div><div><h4>What is the easiest method?</h4><p>Factor the <a href="/q">quadratic</a> first.</p></div></div>` +
			`<div class="block"><div><h4>Which theorems help with geometry problems?</h4></div><div><p>Start with <a href="/p">Pythagoras</a>.</p></div></div>` +
			`<div class="block"><div><h4>How do I solve complex problems?</h4></div><div><p>Split them into smaller ones.</p></div></div>` +
			`</div>`,
			"/html[1]/body[1]/div[1]", "sections"},
		{"records titled by a linked heading with a subtitle heading", `<div class="results">` + repeat(3, func(i int) string {
			return `<div class="book"><h3><a href="/b/` + strconv.Itoa(i) + `">Bleak House volume ` + strconv.Itoa(i) + `</a></h3><h4>Charles Dickens</h4><span>1853</span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"records titled by a heading that is no link, with one heading each", `<div class="events">` + repeat(3, func(i int) string {
			return `<div class="event"><h3>Harbour festival ` + strconv.Itoa(i) + `</h3><span>June ` + strconv.Itoa(i+3) + `</span><span>Quay side</span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"FAQ marked up as schema.org questions with accepted answers", `<ul class="faq">` + repeat(3, func(i int) string {
			return `<li itemprop="mainEntity" itemscope itemtype="https://schema.org/Question"><h3 itemprop="name">Most watched series of season ` + strconv.Itoa(i) + `</h3>` +
				`<div itemprop="acceptedAnswer" itemscope itemtype="https://schema.org/Answer"><div itemprop="text"><p>Top three:</p><ol><li>No. 1 <a href="/s/1">Naruto</a></li><li>No. 2 <a href="/s/2">Bleach</a></li></ol></div></div></li>`
		}) + `</ul>`,
			"/html[1]/body[1]/ul[1]", "questions"},
		{"results of a Q&A site marked up with answers: linked questions are records", `<div class="results">` + repeat(3, func(i int) string {
			return `<div itemscope itemtype="https://schema.org/Question"><a href="/q/` + strconv.Itoa(i) + `" itemprop="name">Parsing case ` + strconv.Itoa(i) + ` in Go</a>` +
				`<div itemprop="acceptedAnswer" itemscope itemtype="https://schema.org/Answer"><span itemprop="text">Use a scanner.</span></div><span>` + strconv.Itoa(i+3) + ` votes</span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"paragraphs of running text in page-builder blocks", `<div class="article">` + repeat(3, func(i int) string {
			return `<div class="block"><span class="text"><p>Practise with <a href="/w/` + strconv.Itoa(i) + `">worksheet ` + strconv.Itoa(i) + `</a>, then try the <a href="/q">quiz</a> to check your progress.</p></span></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", navParagraphs},
		{"headlines: a paragraph that is one link is a record", `<div class="news">` +
			`<div class="story"><p><a href="/n/1">Harbour reopens after the storm <b>Monday</b></a></p></div>` +
			`<div class="story"><p><a href="/n/2">Ferry timetable changes for winter <b>Tuesday</b></a></p></div>` +
			`<div class="story"><p><a href="/n/3">Lighthouse open to visitors again <b>Friday</b></a></p></div>` +
			`</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"cards: an image beside a paragraph is a record", `<div class="cards">` + repeat(3, func(i int) string {
			return `<div class="card"><img src="` + strconv.Itoa(i) + `.jpg"><p>Taylor Swift tops the charts for week ` + strconv.Itoa(i) + `.</p></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"results: a title in a heading that is no link, its author in a heading below", `<div class="results">` + repeat(4, func(i int) string {
			return `<div class="result"><h3>Novel ` + strconv.Itoa(i) + ` of the harbour</h3><h4>Charles Dickens</h4><p>Published 185` + strconv.Itoa(i) + `, 300 pages</p></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
		{"posts: a paragraph beside its author is a record", `<div class="posts">` + repeat(3, func(i int) string {
			return `<div class="post"><span class="author">user` + strconv.Itoa(i) + `</span><p>Great harbour walk, see <a href="/w">the map</a> for the route.</p></div>`
		}) + `</div>`,
			"/html[1]/body[1]/div[1]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkListReason(t, tc.body, tc.parent, tc.want) })
	}
}

// TestDocumentPartsNotRecords runs Extract on a page where a page builder's sections
// (a titled section of paragraphs, FAQ entries) hold the query term more densely than
// the product tiles: the tiles are the records.
func TestDocumentPartsNotRecords(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><main><div class="blocks">`)
	b.WriteString(`<div class="block"><div><h2>Calculus courses and tutorials</h2></div><div><h3>Limits, derivatives and integrals</h3></div><div><p>Calculus lessons for every student: calculus of one variable, calculus of several.</p></div></div>`)
	b.WriteString(`<div class="block"><div><h2>Calculus FAQs</h2></div><div><h4>Is calculus hard to learn?</h4></div><div><p>Calculus takes practice; calculus problems get easier.</p></div></div>`)
	b.WriteString(`<div class="block"><div><h4>Which calculus book should I read?</h4></div><div><p>Any calculus book with solved calculus exercises.</p></div></div>`)
	b.WriteString(`</div><div class="grid">`)
	for i, title := range []string{"Calculus I", "Calculus II", "Applied calculus", "Calculus for engineers", "Calculus refresher"} {
		b.WriteString(`<div class="tile"><a href="/p/` + strconv.Itoa(i) + `"><img src="/i/` + strconv.Itoa(i) + `.jpg"></a><h3><a href="/p/` + strconv.Itoa(i) + `">` + title + `</a></h3><p class="price">$` + strconv.Itoa(15+i) + `.00</p></div>`)
	}
	b.WriteString(`</div></main></body></html>`)
	pages := []Page{{Name: "courses.html", HTML: []byte(b.String()), Terms: []string{"calculus"}}}
	for _, regions := range []RegionPolicy{RegionsBest, RegionsAll} {
		_, got := recordXPaths(t, pages, regions, "")
		if len(got) != 5 || !strings.HasSuffix(got[0], "/div[2]/div[1]") {
			t.Errorf("%s: records %q, want the five tiles of /html[1]/body[1]/main[1]/div[2]", regions, got)
		}
	}
}
