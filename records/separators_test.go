package records

import (
	"fmt"
	"testing"
)

// TestDropSeparators: a date heading row between groups of records is dropped; a record
// with one field the records share, a linked one, a list of one-field records and a
// heading of another list are kept.
func TestDropSeparators(t *testing.T) {
	row := func(list string, i int, leaves ...Leaf) Record {
		return Record{Page: "p", XPath: fmt.Sprintf("%s/tr[%d]", list, i), Leaves: leaves}
	}
	full := func(list string, i int) Record {
		return row(list, i, Leaf{Path: "tr/td.time", Text: "10:20"}, Leaf{Path: "tr/td.comment", Text: "a change"}, Leaf{Path: "tr/td.comment/a", Text: "94bc3987a4", Href: "/info/94bc"})
	}
	const tl, names = "/html/body/table/tbody", "/html/body/ul"
	recs := []Record{
		row(tl, 1, Leaf{Path: "tr.dateRow/td/div.divider", Text: "2026-11-27"}),
		full(tl, 2), full(tl, 3),
		row(tl, 4, Leaf{Path: "tr.dateRow/td/div.divider", Text: "2026-11-26"}),
		full(tl, 5), full(tl, 6),
		row(tl, 7, Leaf{Path: "tr/td.comment", Text: "a record with its comment only"}),
		row(tl, 8, Leaf{Path: "tr/td/a", Text: "More", Href: "/timeline?n=100"}),
		full(tl, 9), full(tl, 10),
	}
	for i := 1; i <= 4; i++ {
		recs = append(recs, Record{Page: "p", XPath: fmt.Sprintf("%s/li[%d]", names, i), Leaves: []Leaf{{Path: "li", Text: fmt.Sprint("name ", i)}}})
	}
	got := dropSeparators(recs)
	if len(got) != len(recs)-2 {
		t.Fatalf("%d records kept of %d, want all but the 2 date rows", len(got), len(recs))
	}
	for _, r := range got {
		if r.Leaves[0].Path == "tr.dateRow/td/div.divider" {
			t.Errorf("the heading row %s %q is kept", r.XPath, r.Leaves[0].Text)
		}
	}
	// Too few records to tell a heading from a record: all kept.
	if small := dropSeparators(recs[:3]); len(small) != 3 {
		t.Errorf("a list of 3 records lost %d", 3-len(small))
	}
}

// TestDropBlankItems: items with no text, alternative text or link (a grey
// placeholder picture) among items with text are dropped, even in a short list; a
// linked picture without a caption stays, and so does a list of blank items.
func TestDropBlankItems(t *testing.T) {
	item := func(list string, i int, leaves ...Leaf) Record {
		return Record{Page: "p", XPath: fmt.Sprintf("%s/li[%d]", list, i), Leaves: leaves}
	}
	pic := Leaf{Path: "li/div.shimmer/img", Src: "data:image/svg+xml,%3Csvg%3E"}
	const cards, gallery = "/html/body/ul[1]", "/html/body/ul[2]"
	recs := []Record{
		item(cards, 1, Leaf{Path: "li/a/img", Src: "/h1.jpg", Href: "/h/1"}, Leaf{Path: "li/span.price", Text: "$750,000"}),
		item(cards, 2, Leaf{Path: "li/span.price", Text: "$420,000"}),
		item(cards, 3, pic),
		item(cards, 4, Leaf{Path: "li/a/img", Src: "/h4.jpg", Href: "/h/4"}),
		item(gallery, 1, pic),
		item(gallery, 2, pic),
	}
	got := dropSeparators(recs)
	if len(got) != 5 {
		t.Fatalf("%d records kept of 6, want all but the blank card", len(got))
	}
	for _, r := range got {
		if r.XPath == cards+"/li[3]" {
			t.Errorf("the blank item %s is kept", r.XPath)
		}
	}
}
