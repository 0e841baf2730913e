package schema

import "testing"

func TestClean(t *testing.T) {
	tests := []struct {
		name, in, want string
		repaired       bool
	}{
		{"plain", "Great Expectations", "Great Expectations", false},
		{"odd white space", "  Great\u00a0\u00a0Expectations\t\n", "Great Expectations", false},
		{"zero-width and soft hyphen", "Ex\u200bpec\u00adtations", "Expectations", true},
		{"markup", "<b>Dickens</b>, <i>Charles</i>", "Dickens , Charles", true},
		{"comment", "Emma<!-- promo --> (1815)", "Emma (1815)", true},
		{"entities", "Crime &amp; Punishment &#8212; &eacute;d.", "Crime & Punishment — éd.", true},
		{"latin-1 bytes", "Les Mis\xe9rables \x96 Hugo", "Les Misérables – Hugo", true},
		{"utf-8 with a stray byte", "Café \x96 Hugo", "Café – Hugo", true},
		{"control characters", "a\x00b\x07c", "abc", true},
		{"private use icon", "\uf005 4.5", "4.5", true},
		{"comparison is not markup", "a < b > c", "a < b > c", false},
		{"empty", "   ", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rep := Clean(tc.in)
			if got != tc.want || rep != tc.repaired {
				t.Errorf("Clean(%q) = %q, %v; want %q, %v", tc.in, got, rep, tc.want, tc.repaired)
			}
		})
	}
}

func TestContainsCriterion(t *testing.T) {
	// The test vectors of deepweb.md §7 (after normalisation).
	tests := []struct {
		i        string
		instance []string
		mapped   bool
	}{
		{"dickens", []string{"charles dickens", "dickens charles"}, true},
		{"Dickens", []string{"DICKENS, CHARLES", "Charles Dickens"}, true},
		{"great expectations", []string{"great expectations", "great expectations penguin classics"}, true},
		{"dickens", []string{"charles dickens", "bleak house"}, false},
		{"dick", []string{"charles dickens"}, false}, // word boundaries
	}
	for _, tc := range tests {
		all := len(tc.instance) > 0
		for _, x := range tc.instance {
			if !contains(x, tc.i) {
				all = false
			}
		}
		if all != tc.mapped {
			t.Errorf("i=%q I=%q: mapped=%v, want %v", tc.i, tc.instance, all, tc.mapped)
		}
	}
}
