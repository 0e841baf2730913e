package schema_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/internal/testutil"
	"github.com/trawl-dev/trawl/schema"
	"github.com/trawl-dev/trawl/schema/schematest"
)

// TestFixtureSites checks the acceptance bars on the fixture sites: features vs true
// attributes with precision and recall ≥ 0.95, every text field that filters an
// attribute mapped to it, no field mapped to a wrong attribute. Record paths with and
// without cell positions, with re-submission and with the probe log only.
func TestFixtureSites(t *testing.T) {
	for _, l := range []schematest.Layout{schematest.Table, schematest.List, schematest.Calibre} {
		for _, positions := range []bool{true, false} {
			for _, resubmit := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/positions=%v/resubmit=%v", l, positions, resubmit), func(t *testing.T) {
					site := schematest.NewSite(l)
					dir := t.TempDir()
					run, err := site.WriteRun(dir, site.Plan(), positions)
					if err != nil {
						t.Fatal(err)
					}
					var sub schema.Submitter
					n := 0
					if resubmit {
						sub = schema.SubmitFunc(site.Submitter(&n, positions))
					}
					s, err := schematest.RunDir(t.Context(), dir, sub, schema.DefaultOptions())
					if err != nil {
						t.Fatal(err)
					}
					recs, err := schematest.ReadRecords(dir)
					if err != nil {
						t.Fatal(err)
					}
					sc := schematest.Evaluate(s, recs, site.TruthOf(run))
					t.Logf("%d records, %d submissions: %v", len(recs), n, sc)
					if sc.Precision < 0.95 || sc.Recall < 0.95 {
						t.Errorf("precision %.3f recall %.3f, want ≥ 0.95", sc.Precision, sc.Recall)
					}
					if len(sc.WrongMappings) > 0 {
						t.Errorf("wrong mappings: %v", sc.WrongMappings)
					}
					if resubmit && len(sc.MissingMappings) > 0 {
						t.Errorf("fields not mapped to the attribute they filter: %v", sc.MissingMappings)
					}
					links := 0
					for _, f := range s.Features {
						if f.Kind == schema.KindLink {
							links++
						}
					}
					if links != 1 {
						t.Errorf("%d link features, want 1 (the detail link or the thumbnail)", links)
					}
					if s.Stats.Records != len(recs) {
						t.Errorf("stats: %d records, want %d", s.Stats.Records, len(recs))
					}
				})
			}
		}
	}
}

// TestGoldenSchema pins the output schema of the calibre-like fixture (review every
// -update diff) and checks that building twice gives the same bytes.
func TestGoldenSchema(t *testing.T) {
	var outs [2][]byte
	for k := range outs {
		site := schematest.NewSite(schematest.Calibre)
		dir := t.TempDir()
		if _, err := site.WriteRun(dir, site.Plan(), true); err != nil {
			t.Fatal(err)
		}
		if _, err := schematest.RunDir(t.Context(), dir, schema.SubmitFunc(site.Submitter(nil, true)), schema.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, schema.SchemaFile))
		if err != nil {
			t.Fatal(err)
		}
		outs[k] = b
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("two builds over the same pages gave different schema.json")
	}
	testutil.Golden(t, "calibre.schema.json", outs[0])
}
