package formasaurus

import (
	"math"
	"testing"

	"github.com/trawl-dev/trawl/probe"
)

func TestPRF(t *testing.T) {
	s := PRF{TP: 8, FP: 2, FN: 4}
	if math.Abs(s.Precision()-0.8) > 1e-12 || math.Abs(s.Recall()-8.0/12) > 1e-12 ||
		math.Abs(s.F1()-2*0.8*(8.0/12)/(0.8+8.0/12)) > 1e-12 || s.Support() != 12 {
		t.Errorf("PRF %+v: p %v r %v f1 %v", s, s.Precision(), s.Recall(), s.F1())
	}
	if z := (PRF{}); z.Precision() != 0 || z.Recall() != 0 || z.F1() != 0 {
		t.Error("empty PRF is not zero")
	}
}

func TestScore(t *testing.T) {
	field := func(name, role string) probe.Field { return probe.Field{Name: name, Type: "text", Role: role} }
	exs := []Example{
		{Class: probe.ClassSearch, Roles: map[string]string{"q": probe.RoleKeyword, "cat": probe.RoleCategory}},
		{Class: probe.ClassSearch, Roles: map[string]string{"q": probe.RoleKeyword}},
		{Class: probe.ClassLogin, Roles: map[string]string{"u": probe.RoleUsername}},
		{Class: ""}, // not annotated: not scored
	}
	pred := []probe.Form{
		{Class: probe.ClassSearch, KeywordFields: []string{"q"}, Fields: []probe.Field{field("q", probe.RoleKeyword), field("cat", probe.RoleCategory)}},
		{Class: probe.ClassLogin, KeywordFields: []string{}, Fields: []probe.Field{field("q", probe.RoleUsername)}},
		{Class: probe.ClassSearch, KeywordFields: []string{"u", "extra"}, Fields: []probe.Field{field("u", probe.RoleKeyword)}},
		{Class: probe.ClassSearch},
	}
	s := Score(exs, pred)
	if s.Forms != 3 || s.Correct != 1 {
		t.Errorf("forms %d correct %d, want 3 and 1", s.Forms, s.Correct)
	}
	if c := s.Class[probe.ClassSearch]; *c != (PRF{TP: 1, FP: 1, FN: 1}) {
		t.Errorf("search %+v", *c)
	}
	// keyword: q of form 0 found; q of form 1 missed; u and the unannotated "extra" of
	// form 2 wrongly predicted
	if s.Keyword != (PRF{TP: 1, FP: 2, FN: 1}) || s.KeywordFields != 4 || s.KeywordForms != 3 {
		t.Errorf("keyword %+v over %d fields in %d forms", s.Keyword, s.KeywordFields, s.KeywordForms)
	}
	if u := s.Role[probe.RoleUsername]; *u != (PRF{FP: 1, FN: 1}) {
		t.Errorf("username %+v", *u)
	}
}
