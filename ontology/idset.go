package ontology

import "github.com/trawl-dev/trawl/graph"

// idSet is an open-addressing set of non-zero uint64 keys (node identifiers, normal
// form hashes). The loader uses one per worker to emit each term's dictionary entry
// about once; when its table would outgrow maxBytes it is cleared, which only costs
// duplicate entries that the final merge drops. Its table lives outside the Go heap
// (like the sort buffers, so that the collector's headroom does not double it); release
// frees it.
type idSet struct {
	slots    []uint64
	heap     bool // slots were made on the Go heap (mapping failed)
	n        int
	maxSlots int
}

func newIDSet(maxBytes int64) *idSet {
	maxSlots := 1 << 12
	for int64(maxSlots)*2*8 <= maxBytes {
		maxSlots *= 2
	}
	return &idSet{maxSlots: maxSlots}
}

// release frees the table; the set is empty afterwards.
func (s *idSet) release() {
	if !s.heap {
		freeRecords(s.slots)
	}
	s.slots, s.n, s.heap = nil, 0, false
}

// add inserts k and reports whether it was absent.
func (s *idSet) add(k uint64) bool {
	if k == 0 {
		k = 1
	}
	if s.slots == nil {
		s.resize(1 << 12)
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

// peek reads the slot where a lookup of k starts (0 for an empty set); the encoder
// reads ahead with it.
func (s *idSet) peek(k uint64) uint64 {
	if len(s.slots) == 0 {
		return 0
	}
	return s.slots[mix64(k)&uint64(len(s.slots)-1)]
}

func (s *idSet) grow() {
	if len(s.slots) >= s.maxSlots {
		clear(s.slots)
		s.n = 0
		return
	}
	s.resize(2 * len(s.slots))
}

// resize moves the keys to a table of n slots. If the memory cannot be mapped, the
// table is made on the Go heap instead.
func (s *idSet) resize(n int) {
	old, oldHeap := s.slots, s.heap
	slots, err := allocRecords[uint64](n)
	s.heap = err != nil
	if s.heap {
		slots = make([]uint64, n)
	}
	s.slots = slots
	s.n = 0
	defer func() {
		if !oldHeap {
			freeRecords(old)
		}
	}()
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
