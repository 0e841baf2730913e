package ontology_test

import (
	"testing"
	"time"

	"github.com/trawl-dev/trawl/ontology"
)

func TestTinyTiming(t *testing.T) {
	for range 5 {
		start := time.Now()
		st, rep, err := ontology.LoadMemory(t.Context(), []ontology.Source{ontology.BytesSource("x.nt", []byte("<http://a> <http://b> \"c\" .\n"), ontology.FormatAuto)}, smallLoad())
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Since(start)
		st.Close()
		t.Log(t1, time.Since(start), rep.ParseTime, rep.IndexTime)
	}
}
