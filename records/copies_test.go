package records

import (
	"strconv"
	"strings"
	"testing"
)

// TestResponsiveCopies checks that the anchor-list test of navigation counts a caption
// repeated for another screen size once: linked tiles of an image and one caption,
// kept twice, are an anchor list like tiles that keep it once; tiles with two distinct
// texts, or an unlinked caption (a gallery), are not.
func TestResponsiveCopies(t *testing.T) {
	tile := func(href, first, second string) string {
		return `<a class="column" href="` + href + `"><div><img src="` + href + `.jpg"><div><img src="` + href + `-small.jpg"></div><p>` + first + `</p></div><div><h3>` + second + `</h3></div></a>`
	}
	tests := []struct {
		name string
		body string
		want string
	}{
		{"linked tiles with the caption twice", `<div class="columns">` +
			tile("/algebra", "EXPLORE ALGEBRA CONCEPTS", "EXPLORE ALGEBRA CONCEPTS") +
			tile("/calculus", "DISCOVER CALCULUS BASICS", "Discover calculus basics") +
			tile("/geometry", "LEARN GEOMETRY THEOREMS", "LEARN GEOMETRY THEOREMS") + `</div>`, "anchor list"},
		{"linked tiles with a title and a subtitle", `<div class="columns">` +
			tile("/algebra", "Algebra I", "Linear equations and functions") +
			tile("/calculus", "Calculus", "Limits, derivatives and integrals") +
			tile("/geometry", "Geometry", "Triangles, circles and proofs") + `</div>`, ""},
		{"gallery: an unlinked caption twice", `<div class="gallery"><figure><img src="a.jpg"><figcaption>Harbour</figcaption><span>Harbour</span></figure>` +
			`<figure><img src="b.jpg"><figcaption>Lighthouse</figcaption><span>Lighthouse</span></figure><figure><img src="c.jpg"><figcaption>Quay</figcaption><span>Quay</span></figure></div>`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkListReason(t, tc.body, "/html[1]/body[1]/div[1]", tc.want) })
	}
}

// TestResponsiveCopiesNotRecords runs Extract under RegionsAll on a page where a strip
// of linked course tiles, each with its caption twice, holds the query terms more
// densely than five product tiles: the product tiles are the records.
func TestResponsiveCopiesNotRecords(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><body><main><div class="grid">`)
	for i, title := range []string{"Algebra workbook", "Calculus primer", "Geometry atlas", "Statistics guide", "Algebra drills"} {
		n := strconv.Itoa(i)
		b.WriteString(`<div class="tile"><a href="/p/` + n + `"><img src="/i/` + n + `.jpg"></a><a href="/p/` + n + `">` + title + `</a><span>$` + strconv.Itoa(10+i) + `.00</span><span>Practice problems and solutions</span></div>`)
	}
	b.WriteString(`</div><div class="editorial"><h3>Recommended courses</h3><div class="columns">`)
	for i, c := range []string{"EXPLORE ALGEBRA CONCEPTS", "DISCOVER CALCULUS BASICS", "ALGEBRA AND GEOMETRY", "ALGEBRA FOR CALCULUS"} {
		n := strconv.Itoa(i)
		b.WriteString(`<a class="column" href="/c/` + n + `"><div><img src="/c/` + n + `.jpg"><p>` + c + `</p></div><div><h3>` + c + `</h3></div></a>`)
	}
	b.WriteString(`</div></div></main></body></html>`)
	pages := []Page{{Name: "courses.html", HTML: []byte(b.String()), Terms: []string{"algebra", "calculus"}}}
	_, got := recordXPaths(t, pages, RegionsAll, "")
	if len(got) != 5 || !strings.HasPrefix(got[0], "/html[1]/body[1]/main[1]/div[1]/div[") {
		t.Errorf("records %q, want the five tiles of /html[1]/body[1]/main[1]/div[1]", got)
	}
}
