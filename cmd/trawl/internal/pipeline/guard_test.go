package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/trawl-dev/trawl/internal/testsites"
	"github.com/trawl-dev/trawl/probe"
	"github.com/trawl-dev/trawl/schema"
)

// failingSubmitter fails the submissions that fail says should fail, and submits the
// others with next.
type failingSubmitter struct {
	next  pageSubmitter
	fail  func(values map[string]string) error
	calls map[string]int // by outcome: "failed", "done"
}

func (f *failingSubmitter) Submit(ctx context.Context, form probe.Form, values map[string]string) ([]probe.Page, error) {
	if err := f.fail(values); err != nil {
		f.calls["failed"]++
		return nil, fmt.Errorf("probe: submit %v to %s: %w", values, form.PageURL, err)
	}
	f.calls["done"]++
	return f.next.Submit(ctx, form, values)
}

// TestResubmissionsBounded: the schema stage stops re-submitting a field after
// MaxSameFailures failures of the same kind, and stops re-submitting altogether after
// twice as many in a row, instead of spending the whole budget (60 submissions) on
// submissions bound to fail.
func TestResubmissionsBounded(t *testing.T) {
	s := testsites.Demo()
	srv := s.NewServer()
	defer srv.Close()
	dir := t.TempDir()
	siteRunDir(t, s, srv.URL, dir)
	build := func(t *testing.T, fail func(map[string]string) error) (*schema.Schema, *failingSubmitter) {
		t.Helper()
		sub := &failingSubmitter{next: &httpSubmitter{t: t}, fail: fail, calls: map[string]int{}}
		rs, err := testResubmitter(dir, sub)
		if err != nil {
			t.Fatal(err)
		}
		p := stagePipeline(dir)
		recs, in, err := p.schemaInput()
		if err != nil {
			t.Fatal(err)
		}
		in.Submitter = rs
		so := p.o.Schema
		so.MaxSubmissions = 60
		sc, err := schema.Build(t.Context(), recs, in, so)
		if err != nil {
			t.Fatal(err)
		}
		return sc, sub
	}
	gaveUp := func(sc *schema.Schema) (n int) {
		for _, tr := range sc.Trials {
			if tr.Error != "" {
				n++
			}
		}
		return n
	}

	t.Run("the site fails", func(t *testing.T) {
		sc, sub := build(t, func(map[string]string) error { return errors.New("net::ERR_CONNECTION_REFUSED") })
		if sub.calls["failed"] > 2*MaxSameFailures || sub.calls["done"] != 0 {
			t.Errorf("%d submissions made, all failing; want at most %d", sub.calls["failed"], 2*MaxSameFailures)
		}
		if n := gaveUp(sc); n <= sub.calls["failed"] {
			t.Fatalf("the mapping asked for %d submissions only: the test does not show the bound", n)
		}
	})

	t.Run("one field fails", func(t *testing.T) {
		title := 0
		sc, sub := build(t, func(v map[string]string) error {
			if v["title"] != "" {
				title++
				return fmt.Errorf("the field %q does not take the focus", "title")
			}
			return nil
		})
		if title > MaxSameFailures {
			t.Errorf("the title field was submitted %d times, failing each time; want at most %d", title, MaxSameFailures)
		}
		if sub.calls["done"] == 0 {
			t.Error("the other fields were not re-submitted")
		}
		tried := 0
		for _, tr := range sc.Trials {
			if tr.Field == "title" {
				tried++
			}
		}
		if tried <= title {
			t.Fatalf("the mapping tried the title field %d times only: the test does not show the bound", tried)
		}
	})
}

func TestFailureKind(t *testing.T) {
	a := fmt.Errorf("probe: submit map[title:x] to http://a/: %w", fmt.Errorf("the field %q does not take the focus", "title"))
	b := fmt.Errorf("probe: submit map[title:y z] to http://a/: %w", fmt.Errorf("the field %q does not take the focus", "author"))
	c := fmt.Errorf("probe: submit map[q:x] to http://a/: %w", context.DeadlineExceeded)
	if failureKind(a) != failureKind(b) || failureKind(a) == failureKind(c) {
		t.Errorf("kinds %q, %q, %q", failureKind(a), failureKind(b), failureKind(c))
	}
}
