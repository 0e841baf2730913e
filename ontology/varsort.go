package ontology

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// varItem is a record of the variable-length sorter: two sort keys and a payload (a
// term encoding, or a literal's normal form). A payload returned by a cursor stays valid
// until the cursor's next call but one.
type varItem struct {
	k1, k2 uint64
	data   []byte
}

func cmpVar(a, b varItem) int {
	if c := cmp.Compare(a.k1, b.k1); c != 0 {
		return c
	}
	if c := cmp.Compare(a.k2, b.k2); c != 0 {
		return c
	}
	return bytes.Compare(a.data, b.data)
}

type varRec struct {
	k1, k2 uint64
	off, n uint32
}

// varSorter is the external sorter for variable-length records. Like fixedSorter it
// spills full buffers in the background, one at a time.
type varSorter struct {
	mu    sync.Mutex // guards cur and total
	cur   varBuf
	total int64

	spilling sync.WaitGroup // the spill in flight; it owns tmp, runs, nrun, spare, err
	tmp      []varRec
	spare    varBuf
	err      error
	runs     []varRun
	nrun     int

	name  string
	dir   string
	limit int64 // bytes of arena + index per buffer
}

type varBuf struct {
	arena []byte
	recs  []varRec
}

func (b varBuf) size() int64 { return int64(len(b.arena)) + int64(len(b.recs))*24 }

// varRun is a sorted run; split locates the first record with a literal key (byte
// offset in the file, index in memory).
type varRun struct {
	path  string
	mem   []varItem
	split int64
	size  int64
}

func newVarSorter(name, dir string, limitBytes int64) *varSorter {
	// Two buffers (one filling, one spilling) and the index scratch space.
	return &varSorter{name: name, dir: dir, limit: max(limitBytes/2-limitBytes/8, 1<<16)}
}

// add appends a batch of records.
func (s *varSorter) add(items []varItem) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		if len(it.data) > 1<<30 {
			return fmt.Errorf("record of %d bytes is too large", len(it.data))
		}
		s.cur.recs = append(s.cur.recs, varRec{k1: it.k1, k2: it.k2, off: uint32(len(s.cur.arena)), n: uint32(len(it.data))})
		s.cur.arena = append(s.cur.arena, it.data...)
		s.total++
		if s.cur.size() >= s.limit || len(s.cur.arena) > 1<<31 {
			full := s.cur
			s.spilling.Wait()
			if s.err != nil {
				return s.err
			}
			s.cur = varBuf{arena: s.spare.arena[:0], recs: s.spare.recs[:0]}
			s.spilling.Add(1)
			go func() {
				defer s.spilling.Done()
				if err := s.spill(full, false); err != nil {
					s.err = err
				}
				s.spare = full
			}()
		}
	}
	return nil
}

// sortBuffer sorts b.recs by (k1, k2, bytes).
func (s *varSorter) sortBuffer(b varBuf) []varRec {
	if cap(s.tmp) < len(b.recs) {
		s.tmp = make([]varRec, len(b.recs))
	}
	arena := b.arena
	// Sort (k1, k2, index) with the word sort, then apply the permutation; equal keys
	// (duplicates, or a hash collision) are then ordered by their bytes.
	keys := make([]rec3, len(b.recs))
	for i, r := range b.recs {
		keys[i] = rec3{r.k1, r.k2, uint64(i)}
	}
	sortWords(keys, nil)
	sorted := s.tmp[:len(b.recs)]
	for i, k := range keys {
		sorted[i] = b.recs[k[2]]
	}
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].k1 == sorted[i].k1 && sorted[j].k2 == sorted[i].k2 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(sorted[i:j], func(a, b varRec) int {
				return bytes.Compare(arena[a.off:a.off+a.n], arena[b.off:b.off+b.n])
			})
		}
		i = j
	}
	return sorted
}

func (s *varSorter) spill(b varBuf, keep bool) error {
	if len(b.recs) == 0 {
		return nil
	}
	sorted := s.sortBuffer(b)
	if keep {
		items := make([]varItem, len(sorted))
		for i, r := range sorted {
			items[i] = varItem{k1: r.k1, k2: r.k2, data: b.arena[r.off : r.off+r.n]}
		}
		split, _ := slices.BinarySearchFunc(items, literalBit, func(it varItem, t uint64) int { return cmp.Compare(it.k1, t) })
		s.runs = append(s.runs, varRun{mem: items, split: int64(split)})
		return nil
	}
	path := filepath.Join(s.dir, fmt.Sprintf("%s-%04d.run", s.name, s.nrun))
	split, size, err := writeVarRun(path, sorted, b.arena)
	if err != nil {
		return fmt.Errorf("write sort run: %w", err)
	}
	s.runs = append(s.runs, varRun{path: path, split: split, size: size})
	s.nrun++
	return nil
}

// writeVarRun writes sorted records; it returns the byte offset of the first record
// with a literal key and the size of the file.
func writeVarRun(path string, recs []varRec, arena []byte) (split, size int64, err error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	var hdr [16 + binary.MaxVarintLen64]byte
	split = -1
	for _, r := range recs {
		if split < 0 && r.k1 >= literalBit {
			split = size
		}
		binary.LittleEndian.PutUint64(hdr[0:], r.k1)
		binary.LittleEndian.PutUint64(hdr[8:], r.k2)
		n := binary.PutUvarint(hdr[16:], uint64(r.n))
		if _, err := w.Write(hdr[:16+n]); err != nil {
			return 0, 0, err
		}
		if _, err := w.Write(arena[r.off : r.off+r.n]); err != nil {
			return 0, 0, err
		}
		size += int64(16+n) + int64(r.n)
	}
	if split < 0 {
		split = size
	}
	return split, size, w.Flush()
}

// finish sorts the last buffer after the spill in flight; it stays in memory when
// nothing was spilled.
func (s *varSorter) finish() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spilling.Wait()
	if s.err != nil {
		return s.err
	}
	err := s.spill(s.cur, s.nrun == 0)
	s.cur, s.tmp, s.spare = varBuf{}, nil, varBuf{}
	return err
}

// merge returns the merged records (or one half of them, by the literal bit of k1).
func (s *varSorter) merge(half int) (*merger[varItem], error) {
	var cs []cursor[varItem]
	for _, r := range s.runs {
		if r.path == "" {
			items := r.mem
			switch half {
			case halfLow:
				items = items[:r.split]
			case halfLit:
				items = items[r.split:]
			}
			cs = append(cs, &memCursor[varItem]{rs: items})
			continue
		}
		f, err := os.Open(r.path)
		if err != nil {
			for _, c := range cs {
				_ = c.close()
			}
			return nil, err
		}
		from, to := int64(0), r.size
		switch half {
		case halfLow:
			to = r.split
		case halfLit:
			from = r.split
		}
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			_ = f.Close()
			for _, c := range cs {
				_ = c.close()
			}
			return nil, err
		}
		cs = append(cs, &varFileCursor{f: f, r: bufio.NewReaderSize(io.LimitReader(f, to-from), 1<<20)})
	}
	return newMerger(cs, cmpVar)
}

type varFileCursor struct {
	f    *os.File
	r    *bufio.Reader
	bufs [2][]byte
	flip int
}

func (c *varFileCursor) next() (varItem, bool, error) {
	var hdr [16]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		if err == io.EOF {
			return varItem{}, false, nil
		}
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	n, err := binary.ReadUvarint(c.r)
	if err != nil {
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	c.flip ^= 1
	b := c.bufs[c.flip]
	if uint64(cap(b)) < n {
		b = make([]byte, n)
	}
	b = b[:n]
	if _, err := io.ReadFull(c.r, b); err != nil {
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	c.bufs[c.flip] = b
	return varItem{k1: binary.LittleEndian.Uint64(hdr[0:]), k2: binary.LittleEndian.Uint64(hdr[8:]), data: b}, true, nil
}

func (c *varFileCursor) close() error { return c.f.Close() }
