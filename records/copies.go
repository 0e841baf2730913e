package records

import "strings"

// responsiveCopy reports whether text repeats the text leaf before it in the same item
// (prev, which it then updates), case aside: the second copy of a caption or title that
// a responsive layout keeps for another screen size (one of the two is hidden by CSS,
// which trawl does not apply). Such a copy is no field of its own; labelList counts it
// once, and so does the anchor-list test of navigation.
func responsiveCopy(text string, prev *string) bool {
	if strings.EqualFold(text, *prev) {
		return true
	}
	*prev = text
	return false
}
