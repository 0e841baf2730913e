package records

import (
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
