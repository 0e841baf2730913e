package records

import (
	"unicode"

	"golang.org/x/net/html/atom"
)

// Layout clustering in the manner of Webstemmer (Y. Shinyama, "Webstemmer – How it
// works?", orangain/webstemmer v0.6.1): a page is a sequence of layout blocks, each
// identified by the last three steps of its path (tag plus tolerant id and class);
// runs of identical blocks are merged (so a list of 3 records and a list of 10 give the
// same sequence; trawl also merges repeated cycles of several blocks, see
// compressRuns); two pages are compared by the weight of the blocks a longest common
// subsequence aligns, over their total weight. Pages join, in one greedy pass, the first
// cluster whose members they all reach the threshold with. Error and no-result pages
// lack the record blocks, which carry most of a result page's text, and fall apart.

// blockTags are Webstemmer's block-level elements.
var blockTags = map[atom.Atom]bool{
	atom.Title: true, atom.P: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true,
	atom.H5: true, atom.H6: true, atom.Tr: true, atom.Td: true, atom.Th: true, atom.Dt: true,
	atom.Dd: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Dir: true,
	atom.Menu: true, atom.Pre: true, atom.Div: true, atom.Center: true, atom.Font: true,
	atom.Span: true, atom.Blockquote: true, atom.Table: true, atom.Address: true,
	// HTML5 sectioning elements play the same role today.
	atom.Section: true, atom.Article: true, atom.Main: true, atom.Header: true,
	atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Body: true,
}

// minBlockChars is Webstemmer's minimum of significant characters per block.
const minBlockChars = 5

// block is one layout block of a page.
type block struct {
	feature string
	weight  float64
}

// layoutBlocks returns the merged block sequence of p.
func layoutBlocks(p *page) []block {
	var out []block
	var cur int32 = -1
	var chars int
	flush := func() {
		if cur >= 0 && chars >= minBlockChars {
			f := blockFeature(p, cur)
			if n := len(out); n > 0 && out[n-1].feature == f {
				out[n-1].weight += float64(chars)
			} else {
				out = append(out, block{feature: f, weight: float64(chars)})
			}
		}
		chars = 0
	}
	lastElem, lastBlock := int32(-1), int32(-1) // text leaves of one element come in a row
	for li := range p.leaves {
		l := &p.leaves[li]
		if l.text == "" {
			continue
		}
		b := l.elem
		if b == lastElem {
			b = lastBlock
		} else {
			for b >= 0 && !blockTags[p.elems[b].n.DataAtom] {
				b = p.elems[b].parent
			}
			lastElem, lastBlock = l.elem, b
		}
		if b != cur {
			flush()
			cur = b
		}
		chars += alnumCount(l.text)
	}
	flush()
	return compressRuns(out)
}

// alnumCount counts the letters and digits of s.
func alnumCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			for _, r := range s[i:] {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					n++
				}
			}
			return n
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

// maxPeriod bounds the length of the block cycles compressRuns merges.
const maxPeriod = 8

// compressRuns merges repeated cycles of blocks into one cycle, adding up their
// weights: the blocks of ten records of three blocks each become the blocks of one
// record. Webstemmer merges runs of one identical block; records made of several
// blocks need cycles, or pages with more records would look like another layout.
func compressRuns(seq []block) []block {
	for changed := true; changed; {
		changed = false
		for k := 1; k <= maxPeriod; k++ {
			for i := 0; i+2*k <= len(seq); {
				same := true
				for j := 0; j < k; j++ {
					if seq[i+j].feature != seq[i+k+j].feature {
						same = false
						break
					}
				}
				if !same {
					i++
					continue
				}
				for j := 0; j < k; j++ {
					seq[i+j].weight += seq[i+k+j].weight
				}
				seq = append(seq[:i+k], seq[i+2*k:]...)
				changed = true
			}
		}
	}
	return seq
}

func blockFeature(p *page, b int32) string {
	var buf [128]byte
	f := buf[:0]
	for c, i := b, 0; c >= 0 && i < 3; c, i = p.elems[c].parent, i+1 {
		n := p.elems[c].n
		if i > 0 {
			f = append(f, '<')
		}
		f = append(f, n.Data...)
		if v := p.tolerantAttr(c, "id"); v != "" {
			f = append(f, '#')
			f = append(f, v...)
		}
		if v := p.tolerantAttr(c, "class"); v != "" {
			f = append(f, '.')
			f = append(f, v...)
		}
	}
	return string(f)
}

// layoutSimilarity is the LCS-aligned weight of both sequences over their total weight,
// in [0, 1]. Two empty pages are identical.
func layoutSimilarity(a, b []block) float64 {
	var total float64
	for _, x := range a {
		total += x.weight
	}
	for _, x := range b {
		total += x.weight
	}
	if total == 0 {
		return 1
	}
	// LCS by weight: dp[i][j] = best aligned weight of a[:i], b[:j].
	prev := make([]float64, len(b)+1)
	cur := make([]float64, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			best := max(prev[j], cur[j-1])
			if a[i-1].feature == b[j-1].feature {
				best = max(best, prev[j-1]+a[i-1].weight+b[j-1].weight)
			}
			cur[j] = best
		}
		prev, cur = cur, prev
	}
	return prev[len(b)] / total
}

// maxClusterCompare bounds the members a page is compared with when it tries a cluster.
const maxClusterCompare = 5

// layoutSeq is a block sequence with its weight per feature and its total weight, for
// the quick bound of similarLayouts.
type layoutSeq struct {
	blocks []block
	feats  map[string]float64
	total  float64
}

func newLayoutSeq(blocks []block) *layoutSeq {
	l := &layoutSeq{blocks: blocks, feats: map[string]float64{}}
	for _, b := range blocks {
		l.feats[b.feature] += b.weight
		l.total += b.weight
	}
	return l
}

// similarLayouts reports whether two pages reach the layout threshold. The weight of
// the features they share, over their total weight, bounds the LCS similarity from
// above: when the bound cannot reach the threshold the LCS is skipped, which keeps
// thousands of pages of different layouts tractable.
func similarLayouts(a, b *layoutSeq, threshold float64) bool {
	if a.total+b.total == 0 {
		return true
	}
	small, large := a.feats, b.feats
	if len(small) > len(large) {
		small, large = large, small
	}
	var shared float64
	for f, w := range small {
		if v, ok := large[f]; ok {
			shared += w + v
		}
	}
	if shared/(a.total+b.total) < threshold {
		return false
	}
	return layoutSimilarity(a.blocks, b.blocks) >= threshold
}

// joinsCluster reports whether a page is similar to every compared member of a cluster:
// its first maxClusterCompare members.
func joinsCluster(l *layoutSeq, members []*layoutSeq, threshold float64) bool {
	for k, m := range members {
		if k >= maxClusterCompare {
			break
		}
		if !similarLayouts(l, m, threshold) {
			return false
		}
	}
	return true
}

// clusterLayouts groups pages by layout; it returns a cluster number per page,
// clusters numbered in order of their first page. A page joins, in one greedy pass, the
// first cluster whose first maxClusterCompare members it is similar to.
func clusterLayouts(seqs [][]block, threshold float64) []int {
	ids := make([]int, len(seqs))
	var clusters [][]*layoutSeq
	for i, s := range seqs {
		l := newLayoutSeq(s)
		joined := -1
		for c, members := range clusters {
			if joinsCluster(l, members, threshold) {
				joined = c
				break
			}
		}
		if joined < 0 {
			joined = len(clusters)
			clusters = append(clusters, nil)
		}
		clusters[joined] = append(clusters[joined], l)
		ids[i] = joined
	}
	return ids
}
