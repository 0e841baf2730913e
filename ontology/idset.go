package ontology

import "github.com/trawl-dev/trawl/graph"

// idSet is an open-addressing set of non-zero uint64 keys (node identifiers, normal
// form hashes). The loader uses one per worker to emit each term's dictionary entry
// about once; when its table would outgrow maxBytes it is cleared, which only costs
// duplicate entries that the final merge drops.
type idSet struct {
	slots    []uint64
	n        int
	maxSlots int
}

func newIDSet(maxBytes int64) *idSet {
	maxSlots := 1 << 12
	for int64(maxSlots)*2*8 <= maxBytes {
		maxSlots *= 2
	}
	return &idSet{slots: make([]uint64, 1<<12), maxSlots: maxSlots}
}

// add inserts k and reports whether it was absent.
func (s *idSet) add(k uint64) bool {
	if k == 0 {
		k = 1
	}
	mask := uint64(len(s.slots) - 1)
	i := mix64(k) & mask
	for {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			if s.n*2 > len(s.slots) {
				s.grow()
			}
			return true
		}
		i = (i + 1) & mask
	}
}

func (s *idSet) grow() {
	if len(s.slots) >= s.maxSlots {
		clear(s.slots)
		s.n = 0
		return
	}
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.n = 0
	mask := uint64(len(s.slots) - 1)
	for _, k := range old {
		if k == 0 {
			continue
		}
		i := mix64(k) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = k
		s.n++
	}
}

// mix64 is the splitmix64 finaliser (identifiers are hashes already; this guards
// against structured keys such as packed dates).
func mix64(x uint64) uint64 { return graph.Mix64(x) }
