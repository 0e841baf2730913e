package align

import (
	"testing"
)

func TestZZAblation(t *testing.T) {
	for _, ds := range [][3]string{{"Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt", "Restaurants/DERIVED-goldstandard-data-iris.csv"}, {"Persons1/person11.nt", "Persons1/person12.nt", "Persons1/dataset11_dataset12_goldstandard_person.xml"}} {
		kb1, kb2 := loadPair(t, ds[0], ds[1])
		gold := loadGolds(t, kb1, kb2, ds[2])
		for _, c := range []struct {
			name string
			f    func(*Options)
		}{
			{"all", func(o *Options) {}},
			{"none", func(o *Options) {
				o.MinDiscriminative, o.Corroboration, o.NegativeEvidence, o.TypeEvidence = 0, false, false, false
			}},
			{"-disc", func(o *Options) { o.MinDiscriminative = 0 }},
			{"-corr", func(o *Options) { o.Corroboration = false }},
			{"-neg", func(o *Options) { o.NegativeEvidence = false }},
			{"-type", func(o *Options) { o.TypeEvidence = false }},
			{"1:n", func(o *Options) { o.OneToMany = true }},
		} {
			o := DefaultOptions()
			c.f(&o)
			res, err := Align(t.Context(), kb1, kb2, o)
			if err != nil {
				t.Fatal(err)
			}
			s := scoreOf(t, Evaluate(res, gold), "instance", "")
			t.Logf("%s %-6s P %.3f R %.3f correct %d wrong %d", ds[0][:8], c.name, s.Precision, s.Recall, s.Correct, s.Wrong)
		}
	}
}

func TestZZMissed(t *testing.T) {
	kb1, kb2 := loadPair(t, "Restaurants/restaurant1.nt", "Restaurants/restaurant2.nt")
	gold := loadGolds(t, kb1, kb2, "Restaurants/DERIVED-goldstandard-data-iris.csv", "testdata/restaurants-schema-gold.tsv")
	o := DefaultOptions()
	res, _ := Align(t.Context(), kb1, kb2, o)
	s := scoreOf(t, Evaluate(res, gold), "instance", "")
	t.Logf("missed %v", s.Missed)
}
