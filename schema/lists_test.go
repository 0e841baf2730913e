package schema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func values(vs ...string) [][]string {
	out := make([][]string, len(vs))
	for i, v := range vs {
		out[i] = []string{v}
	}
	return out
}

func TestLearnList(t *testing.T) {
	tests := []struct {
		name string
		vals [][]string
		want []Marker
	}{
		{"co-authors recur alone", values("Jon Stewart & Ben Karlin & David Javerbaum", "Jon Stewart", "Ben Karlin",
			"Suzanne Collins", "J.K. Rowling & Mary GrandPré", "J.K. Rowling", "Stephen King & Peter Straub", "Peter Straub"),
			[]Marker{{Sep: " & "}}},
		{"long lists without recurrence", values("Ann Lee & Bo Chan & Cy Young", "Dee Ford & Eve Stone & Flo Rida", "Gus Hall",
			"Hal Jordan", "Ida Wells", "Jo March"), []Marker{{Sep: " & "}}},
		{"tags", values("fantasy, young adult", "fantasy", "classics, romance", "romance", "dystopia, young adult", "classics"),
			[]Marker{{Sep: ", "}}},
		{"titles with and", values("War and Peace", "Pride and Prejudice", "Crime and Punishment", "Emma", "The Idiot",
			"Harry Potter and the Sorcerer's Stone", "Dracula", "Persuasion"), nil},
		{"names reversed", values("Dickens, Charles", "Austen, Jane", "Tolstoy, Leo", "Kafka, Franz", "Orwell, George"), nil},
		{"one publisher", values("Simon & Schuster", "Penguin", "Vintage", "Faber", "Knopf", "Picador"), nil},
		// Issue 15: calibre's series of box sets, "(The Mortal Instruments, #1-3)", became
		// the series "The Mortal Instruments" and a second series "#1-3".
		{"a series and its range", values("The Mortal Instruments, #1-3", "The Lord of the Rings, #1-3", "Fifty Shades, #1-3",
			"Maze Runner, #0.1-0.5", "The Hunger Games", "Maze Runner", "Throne of Glass", "Shiva Trilogy", "Starbound"), nil},
		{"dates are atoms", values("2 Jan, 2008", "5 Mar, 2010", "7 Apr, 1999", "1 May, 2001"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, learnList(tc.vals)); diff != "" {
				t.Errorf("learnList mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitList(t *testing.T) {
	seps := []Marker{{Sep: " & "}, {Sep: ", "}}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Jon Stewart & Ben Karlin & David Javerbaum", []string{"Jon Stewart", "Ben Karlin", "David Javerbaum"}},
		{"Hamlet (Arden, 3rd series), Macbeth", []string{"Hamlet (Arden, 3rd series)", "Macbeth"}},
		{"alone", []string{"alone"}},
		{" & trailing & ", []string{"trailing"}},
	} {
		if diff := cmp.Diff(tc.want, splitList(tc.in, seps)); diff != "" {
			t.Errorf("splitList(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
}
