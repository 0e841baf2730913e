package records

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// listPage renders a page of n book records (a title link, an author, a year) beside a
// navigation menu and a sidebar of single links, with the true records' XPaths.
func listPage(n int, tag string) (string, [][]string) {
	var b strings.Builder
	b.WriteString(`<html><body><nav><ul><li><a href="/">Home</a></li><li><a href="/new">New</a></li><li><a href="/help">Help</a></li></ul></nav><main><ul class="books">`)
	var truth [][]string
	for i := range n {
		bk := shelf[(i*3+len(tag))%len(shelf)]
		fmt.Fprintf(&b, `<li class="book"><a href="/b/%d">%s %s</a> <span class="by">%s</span> <span class="year">%s</span></li>`, i, bk.title, tag, bk.author, bk.year)
		truth = append(truth, []string{fmt.Sprintf("/html[1]/body[1]/main[1]/ul[1]/li[%d]", i+1)})
	}
	b.WriteString(`</ul><aside><ul class="tags"><li><a href="/t/a">classics</a></li><li><a href="/t/b">novels</a></li><li><a href="/t/c">poetry</a></li></ul></aside></main></body></html>`)
	return b.String(), truth
}

// TestTrainListModel trains a list model on a few synthetic list pages and checks that
// it keeps the book records and leaves the menus out on a new page, and that it
// survives a write and a read.
func TestTrainListModel(t *testing.T) {
	var train []TrainingPage
	for i, tag := range []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta"} {
		h, truth := listPage(5+i, tag)
		train = append(train, TrainingPage{Page: Page{Name: tag, HTML: []byte(h)}, Truth: truth})
	}
	o := DefaultOptions()
	o.Regions = RegionsAll
	ex, err := CollectListExamples(t.Context(), [][]TrainingPage{train}, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.Pages(); len(got) != len(train) {
		t.Fatalf("examples of %d pages, want %d", len(got), len(train))
	}
	m, err := TrainListModel(t.Context(), ex, func(p string) bool { return p != "zeta" }, DefaultTrainOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteListModel(&buf, m); err != nil {
		t.Fatal(err)
	}
	if m, err = ReadListModel(&buf); err != nil {
		t.Fatal(err)
	}
	h, truth := listPage(7, "eta")
	o.ListModel = m
	_, recs, err := Extract(t.Context(), []Page{{Name: "eta", HTML: []byte(h)}}, o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.XPath)
	}
	if len(got) != len(truth) || got[0] != truth[0][0] || got[len(got)-1] != truth[len(truth)-1][0] {
		t.Errorf("records %v, want the %d books", got, len(truth))
	}
}

// TestListModelErrors checks the errors of bad models and training options.
func TestListModelErrors(t *testing.T) {
	m, err := DefaultListModel()
	if err != nil {
		t.Fatalf("embedded list model: %v", err)
	}
	bad := *m
	bad.Features = bad.Features[1:]
	if err := bad.Check(); !errors.Is(err, ErrBadOptions) || !strings.Contains(err.Error(), "features") {
		t.Errorf("a model with other features: %v", err)
	}
	bad = *m
	bad.Threshold = 1
	if err := bad.Check(); !errors.Is(err, ErrBadOptions) {
		t.Errorf("a model with threshold 1: %v", err)
	}
	o := DefaultOptions()
	o.ListModel = &bad
	if _, _, err := Extract(t.Context(), []Page{{Name: "p", HTML: []byte("<p>x</p>")}}, o); !errors.Is(err, ErrBadOptions) {
		t.Errorf("Extract with a bad model: %v", err)
	}
	if _, err := ReadListModel(strings.NewReader("not gzip")); err == nil {
		t.Error("ReadListModel of a text: no error")
	}
	to := DefaultTrainOptions()
	to.Lambda = 0
	if _, err := TrainListModel(t.Context(), &ListExamples{}, nil, to); !errors.Is(err, ErrBadOptions) {
		t.Errorf("lambda 0: %v", err)
	}
	if _, err := TrainListModel(t.Context(), &ListExamples{}, nil, DefaultTrainOptions()); err == nil {
		t.Error("no examples: no error")
	}
	ao := DefaultOptions()
	ao.Mode = ModeArticle
	if _, err := CollectListExamples(t.Context(), nil, ao); !errors.Is(err, ErrBadOptions) {
		t.Errorf("article mode: %v", err)
	}
	_, truth := listPage(3, "x")
	truth[0][0] = "/html[1]/body[1]/ul[" // not an XPath
	if _, err := CollectListExamples(t.Context(), [][]TrainingPage{{{Page: Page{Name: "x", HTML: []byte("<ul><li>a b</li><li>c d</li></ul>")}, Truth: truth}}}, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "x: truth xpath") {
		t.Errorf("a truth that is no XPath: %v", err)
	}
}

// TestPager checks which texts make a pager.
func TestPager(t *testing.T) {
	tests := []struct {
		html string
		want bool
	}{
		{`<div>1 <a>2</a> <a>3</a> … <a>13</a></div>`, true},
		{`<div><a>« Previous</a></div>`, false},
		{`<div><a>‹</a> <a>Next</a></div>`, true},
		{`<div><span>2019</span> <span>34</span> <span>56</span></div>`, false},
		{`<div><span>7</span></div>`, false},
		{`<div><a>Bleak House</a> 1853</div>`, false},
	}
	for _, tc := range tests {
		p, err := parsePage("p", []byte("<html><body>"+tc.html+"</body></html>"), false)
		if err != nil {
			t.Fatal(err)
		}
		if got := pager(p, p.body+1); got != tc.want {
			t.Errorf("pager(%s) = %v, want %v", tc.html, got, tc.want)
		}
	}
}
