package schema_test

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/records"
	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

func buildWith(t *testing.T, site *schematest.Site, sub schema.Submitter, o schema.Options) *schema.Schema {
	t.Helper()
	dir := t.TempDir()
	if _, err := site.WriteRun(dir, site.Plan(), true); err != nil {
		t.Fatal(err)
	}
	recs, in, err := schematest.ReadInput(dir)
	if err != nil {
		t.Fatal(err)
	}
	in.Submitter = sub
	s, err := schema.Build(t.Context(), recs, in, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMappingIgnoresFailedSubmissions(t *testing.T) {
	site := schematest.NewSite(schematest.Table)
	good := site.Submitter(nil, true)
	calls := 0
	flaky := schema.SubmitFunc(func(ctx context.Context, v map[string]string) ([]records.Record, error) {
		calls++
		if v["isbn"] != "" {
			return nil, errors.New("browser: tab crashed")
		}
		return good(ctx, v)
	})
	s := buildWith(t, site, flaky, schema.DefaultOptions())
	for _, m := range s.Mapping {
		if m.Field == "isbn" {
			t.Errorf("isbn mapped although every submission failed: %+v", m)
		}
	}
	failed := 0
	for _, tr := range s.Trials {
		if tr.Field == "isbn" && tr.Error != "" {
			failed++
			if tr.Passed {
				t.Errorf("failed trial counted as passed: %+v", tr)
			}
		}
	}
	if failed == 0 {
		t.Error("failed submissions not recorded as trials with an error")
	}
	if s.Feature("author") == nil || len(s.MappedFields("author")) != 2 {
		t.Errorf("author mapped from %v, want q and author", s.MappedFields("author"))
	}
}

func TestMappingBudgetAndCancel(t *testing.T) {
	site := schematest.NewSite(schematest.Table)
	n := 0
	o := schema.DefaultOptions()
	o.MaxSubmissions = 5
	buildWith(t, site, schema.SubmitFunc(site.Submitter(&n, true)), o)
	if n != 5 {
		t.Errorf("%d submissions, want the budget of 5", n)
	}

	ctx, cancel := context.WithCancel(t.Context())
	dir := t.TempDir()
	if _, err := site.WriteRun(dir, site.Plan(), true); err != nil {
		t.Fatal(err)
	}
	stop := schema.SubmitFunc(func(c context.Context, v map[string]string) ([]records.Record, error) {
		cancel()
		return nil, c.Err()
	})
	_, err := schematest.RunDir(ctx, dir, stop, schema.DefaultOptions())
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: error %v, want context.Canceled", err)
	}
}

func TestMappingGenerousIndex(t *testing.T) {
	// A site whose search box ignores the value and always returns the same records
	// must not map: the instances found do not all contain the submitted value.
	site := schematest.NewSite(schematest.List)
	all := site.Submitter(nil, true)
	ignoring := schema.SubmitFunc(func(ctx context.Context, v map[string]string) ([]records.Record, error) {
		return all(ctx, map[string]string{})
	})
	o := schema.DefaultOptions()
	s := buildWith(t, site, ignoring, o)
	for _, m := range s.Mapping {
		if m.Method == "resubmission" {
			t.Errorf("mapped through a form that ignores its input: %+v", m)
		}
	}
	// An error page for everything: nothing maps either.
	none := schema.SubmitFunc(func(ctx context.Context, v map[string]string) ([]records.Record, error) { return nil, nil })
	s = buildWith(t, site, none, o)
	for _, m := range s.Mapping {
		if m.Method == "resubmission" {
			t.Errorf("mapped through error pages: %+v", m)
		}
	}
	for _, tr := range s.Trials {
		if tr.Probe == 0 && (tr.Passed || tr.Records != 0) {
			t.Errorf("trial on an error page: %+v", tr)
		}
	}
}

// TestMappingNumbersFoundElsewhere: a keyword box that finds a number in any column
// (calibre's: "2.5" gives the book whose series number is 2.5 and books that hold 2.5
// in a column the page does not show) must not map to the series number, although
// every series number on its result pages equals the value. The records that come back
// must hold the value at the feature; title and authors still map.
func TestMappingNumbersFoundElsewhere(t *testing.T) {
	site := schematest.NewSite(schematest.Calibre)
	real := site.Submitter(nil, true)
	number := regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	series := regexp.MustCompile(`\[[^\]]* - ([0-9.]+)\]`)
	box := schema.SubmitFunc(func(ctx context.Context, v map[string]string) ([]records.Record, error) {
		q := strings.TrimSpace(v["search"])
		if !number.MatchString(q) {
			return real(ctx, v)
		}
		all, err := real(ctx, map[string]string{})
		if err != nil {
			return nil, err
		}
		x, _ := strconv.ParseFloat(q, 64)
		var out []records.Record
		for _, r := range all {
			var text strings.Builder
			for _, l := range r.Leaves {
				text.WriteString(l.Text + " ")
			}
			m := series.FindStringSubmatch(text.String())
			if m == nil {
				out = append(out, r) // no series: the number is in a hidden column
			} else if y, err := strconv.ParseFloat(m[1], 64); err == nil && y == x {
				out = append(out, r)
			}
		}
		return out, nil
	})
	s := buildWith(t, site, box, schema.DefaultOptions())
	var idx, title string
	for _, f := range s.Features {
		switch {
		case f.Type == schema.TypeDecimal && idx == "":
			idx = f.Name
		case f.Type == schema.TypeString && title == "":
			title = f.Name
		}
	}
	if idx == "" || title == "" {
		t.Fatalf("no series-number or title feature among %d features", len(s.Features))
	}
	if fs := s.MappedFields(idx); len(fs) > 0 {
		for _, tr := range s.Trials {
			if tr.Feature == idx {
				t.Logf("trial %q: %d records, %d holding, passed %v (%s)", tr.Value, tr.Records, tr.Holders, tr.Passed, tr.Relation)
			}
		}
		t.Errorf("the series number %s is mapped from %v", idx, fs)
	}
	if len(s.MappedFields(title)) == 0 {
		t.Errorf("the title %s is not mapped", title)
	}
}
