package probe

import (
	"testing"
)

func TestFormURL(t *testing.T) {
	f := Form{PageURL: "http://127.0.0.1:1/shop/", Action: "search?x=1#top", Method: "GET", Fields: []Field{
		{Name: "q", Type: "search"},
		{Name: "lang", Type: "select", Options: []Option{{Value: "", Text: "any"}, {Value: "en", Text: "English", Selected: true}}},
		{Name: "sort", Type: "select", Options: []Option{{Value: "x", Disabled: true}, {Value: "pop"}}},
		{Name: "kind", Type: "radio", Value: "book", Checked: true},
		{Name: "kind", Type: "radio", Value: "film"},
		{Name: "new", Type: "checkbox", Checked: true},
		{Name: "token", Type: "hidden", Value: "a b&c"},
		{Name: "off", Type: "text", Disabled: true},
		{Name: "go", Type: "submit", Value: "Search", Submit: true},
	}}
	got, err := formURL(f, map[string]string{"q": "war & peace", "kind": "film"}, [2]string{})
	if err != nil {
		t.Fatal(err)
	}
	want := "http://127.0.0.1:1/shop/search?q=war+%26+peace&lang=en&sort=pop&kind=film&new=on&token=a+b%26c"
	if got != want {
		t.Errorf("formURL = %s\nwant      %s", got, want)
	}
	if !sameQuery(got, "http://127.0.0.1:1/shop/search?token=a+b%26c&kind=film&new=on&sort=pop&lang=en&q=war+%26+peace") {
		t.Error("sameQuery: the order of parameters must not matter")
	}
	if sameQuery(got, "http://127.0.0.1:1/shop/search?q=war") {
		t.Error("sameQuery: different queries are equal")
	}
	kv, ok := submitPair(f, got, got+"&go=Search")
	if !ok || kv != [2]string{"go", "Search"} {
		t.Errorf("submitPair = %v, %v", kv, ok)
	}
	f.Fields[5].Name = "box"
	if _, err := formURL(f, map[string]string{"box": "on"}, [2]string{}); err == nil {
		t.Error("an assigned checkbox must be left to the browser")
	}
}

func TestNextLink(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"rel", `<a href="?p=1">1</a><a rel="next" href="?p=2">2</a>`, "http://h/s?p=2"},
		{"text", `<a href="/s?p=0">« Previous</a> <a href="/s?p=2"> Next › </a>`, "http://h/s?p=2"},
		{"arrow", `<a href="p3.html">»</a>`, "http://h/p3.html"},
		{"french", `<a href="/r?page=2">Page suivante</a>`, "http://h/r?page=2"},
		{"none", `<a href="/about">About</a><a href="javascript:next()">Next</a><a href="/x"><img src=a.png></a>`, ""},
	} {
		got, ok := nextLink(Page{URL: "http://h/s?p=1", HTML: "<html><body>" + tc.html + "</body></html>"})
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: nextLink = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}
