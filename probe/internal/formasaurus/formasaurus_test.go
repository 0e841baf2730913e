package formasaurus

import (
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/probe"
)

func TestLoadCorpus(t *testing.T) {
	dir := testutil.SharedData(t, "formasaurus")
	pages, err := Load(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 712 {
		t.Fatalf("loaded %d pages, want 712 (SOURCE.md)", len(pages))
	}
	aligned, forms := 0, 0
	for _, p := range pages {
		if p.Aligned {
			aligned++
			forms += len(p.Forms)
		}
	}
	// 13 pages hold nested <form>s that an HTML5 parser (and Chromium) drops.
	if aligned < 695 {
		t.Errorf("only %d of 712 pages have as many <form>s as annotations", aligned)
	}
	exs := Examples(pages)
	classes := map[probe.Class]int{}
	for _, e := range exs {
		classes[e.Class]++
	}
	if classes[probe.ClassSearch] < 360 || classes[probe.ClassLogin] < 190 {
		t.Errorf("examples per class: %v", classes)
	}
	t.Logf("%d aligned pages, %d forms, %d examples, classes %v", aligned, forms, len(exs), classes)
}

func TestFoldsKeepGroupsTogether(t *testing.T) {
	exs := []Example{{Group: "a.com"}, {Group: "b.com"}, {Group: "a.com"}, {Group: "c.org"}, {Group: "b.com"}, {Group: "d.net"}}
	folds := Folds(exs, 3)
	foldOf := map[string]int{}
	for i, e := range exs {
		if f, ok := foldOf[e.Group]; ok && f != folds[i] {
			t.Errorf("group %s split over folds %d and %d", e.Group, f, folds[i])
		}
		foldOf[e.Group] = folds[i]
	}
	if got := len(map[int]bool{folds[0]: true, folds[1]: true, folds[3]: true}); got != 3 {
		t.Errorf("the three largest groups share folds: %v", folds)
	}
}

func TestGroup(t *testing.T) {
	tests := []struct{ key, url, want string }{
		{"html/account.swtor.com-0.html", "https://account.swtor.com/user/login", "swtor.com"},
		{"html/www.bbc.co.uk-3.html", "http://www.bbc.co.uk/", "bbc.co.uk"},
		{"html/forum.example.org-12.html", "", "example.org"},
	}
	for _, tc := range tests {
		if got := group(tc.key, tc.url); got != tc.want {
			t.Errorf("group(%q, %q) = %q, want %q", tc.key, tc.url, got, tc.want)
		}
	}
}
