package ontology

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// The loader's external sort: records are collected in memory up to a budget, sorted,
// and written as runs (files of sorted records); the final pass merges the runs. When
// everything fits in memory, the last buffer stays in memory as a run.

type words interface{ rec2 | rec3 }

// cursor yields sorted records; ok is false at the end.
type cursor[R any] interface {
	next() (r R, ok bool, err error)
	close() error
}

// memCursor reads a sorted in-memory slice.
type memCursor[R any] struct {
	rs []R
	i  int
}

func (c *memCursor[R]) next() (R, bool, error) {
	if c.i >= len(c.rs) {
		var zero R
		return zero, false, nil
	}
	c.i++
	return c.rs[c.i-1], true, nil
}
func (c *memCursor[R]) close() error { return nil }

// runSource is one sorted run: a file, or a slice kept in memory. split is the index of
// the first record whose first word has the top bit set (a literal node), so that the
// halves of the identifier space can be merged in parallel.
type runSource[R any] struct {
	path     string
	mem      []R
	split, n int64
}

// Halves of a run: all records, those below the literal bit, those above.
const (
	halfAll = -1
	halfLow = 0
	halfLit = 1
)

// writeFixedRun writes sorted records to a new file.
func writeFixedRun[R words](path string, rs []R) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	var buf [24]byte
	for _, r := range rs {
		n := len(r)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(buf[i*8:], r[i])
		}
		if _, err := w.Write(buf[:n*8]); err != nil {
			return err
		}
	}
	return w.Flush()
}

type fixedFileCursor[R words] struct {
	f    *os.File
	r    *bufio.Reader
	left int64 // records left to read
	buf  [24]byte
}

// openFixedRun opens records [from, to) of a run file.
func openFixedRun[R words](path string, from, to int64) (*fixedFileCursor[R], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var r R
	if _, err := f.Seek(from*int64(8*len(r)), io.SeekStart); err != nil {
		_ = f.Close()
		return nil, err
	}
	return &fixedFileCursor[R]{f: f, r: bufio.NewReaderSize(f, 1<<20), left: to - from}, nil
}

func (c *fixedFileCursor[R]) next() (R, bool, error) {
	var r R
	n := len(r)
	if c.left <= 0 {
		return r, false, nil
	}
	c.left--
	if _, err := io.ReadFull(c.r, c.buf[:n*8]); err != nil {
		if err == io.EOF {
			return r, false, nil
		}
		return r, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	for i := 0; i < n; i++ {
		r[i] = binary.LittleEndian.Uint64(c.buf[i*8:])
	}
	return r, true, nil
}

func (c *fixedFileCursor[R]) close() error { return c.f.Close() }

func openRun[R words](s runSource[R], half int) (cursor[R], error) {
	from, to := int64(0), s.n
	switch half {
	case halfLow:
		to = s.split
	case halfLit:
		from = s.split
	}
	if s.path == "" {
		return &memCursor[R]{rs: s.mem[from:to]}, nil
	}
	return openFixedRun[R](s.path, from, to)
}

// splitIndex returns the index of the first record whose first word has the literal
// bit set.
func splitIndex[R words](rs []R) int64 {
	i, _ := slices.BinarySearchFunc(rs, literalBit, func(r R, t uint64) int { return cmp.Compare(r[0], t) })
	return int64(i)
}

// merger merges sorted cursors into one sorted sequence (duplicates are kept; callers
// drop them, since equal records are adjacent).
type merger[R any] struct {
	cs   []cursor[R]
	heap []mergeItem[R]
	cmp  func(a, b R) int
}

type mergeItem[R any] struct {
	r R
	c int
}

func newMerger[R any](cs []cursor[R], compare func(a, b R) int) (*merger[R], error) {
	m := &merger[R]{cs: cs, cmp: compare}
	for i, c := range cs {
		r, ok, err := c.next()
		if err != nil {
			_ = m.close()
			return nil, err
		}
		if ok {
			m.heap = append(m.heap, mergeItem[R]{r, i})
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	return m, nil
}

func (m *merger[R]) less(i, j int) bool {
	c := m.cmp(m.heap[i].r, m.heap[j].r)
	return c < 0 || c == 0 && m.heap[i].c < m.heap[j].c
}

func (m *merger[R]) down(i int) {
	n := len(m.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		s := l
		if r := l + 1; r < n && m.less(r, l) {
			s = r
		}
		if !m.less(s, i) {
			return
		}
		m.heap[i], m.heap[s] = m.heap[s], m.heap[i]
		i = s
	}
}

// next returns the smallest remaining record.
func (m *merger[R]) next() (R, bool, error) {
	if len(m.heap) == 0 {
		var zero R
		return zero, false, nil
	}
	top := m.heap[0]
	r, ok, err := m.cs[top.c].next()
	if err != nil {
		return top.r, false, err
	}
	if ok {
		m.heap[0].r = r
	} else {
		last := len(m.heap) - 1
		m.heap[0] = m.heap[last]
		m.heap = m.heap[:last]
	}
	if len(m.heap) > 0 {
		m.down(0)
	}
	return top.r, true, nil
}

func (m *merger[R]) close() error {
	var errs []error
	for _, c := range m.cs {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// openMerger opens (one half of) the runs of one order and merges them.
func openMerger[R words](srcs []runSource[R], half int, compare func(a, b R) int) (*merger[R], error) {
	var cs []cursor[R]
	for _, s := range srcs {
		c, err := openRun(s, half)
		if err != nil {
			for _, c := range cs {
				_ = c.close()
			}
			return nil, err
		}
		cs = append(cs, c)
	}
	return newMerger(cs, compare)
}

// fixedSorter collects fixed-size records and sorts them into runs, in one or more
// orders (the triple sorter writes each buffer in SPO, OPS and PSO order). A full
// buffer is sorted and written by a background goroutine while the parsers fill the
// next one; at most one spill runs at a time.
type fixedSorter[R words] struct {
	mu    sync.Mutex // guards buf and total
	buf   []R
	total int64

	spilling sync.WaitGroup // the spill in flight; it owns tmp, runs, nrun, spare, err
	tmp      []R
	spare    []R
	err      error
	runs     [][]runSource[R] // per order
	nrun     int

	name    string
	dir     string
	limit   int // records per buffer
	orders  int
	permute func(order int, r R) R // from the previous order's layout (or the input) to this order's
	sort    func(order int, rs, tmp []R)
	compare func(a, b R) int
}

func newFixedSorter[R words](name, dir string, limitBytes int64, orders int,
	permute func(order int, r R) R, sort func(order int, rs, tmp []R), compare func(a, b R) int) *fixedSorter[R] {
	var r R
	// Two buffers (one filling, one spilling) and the sort's scratch buffer.
	limit := int(limitBytes / int64(3*8*len(r)))
	limit = max(limit, 1024)
	return &fixedSorter[R]{name: name, dir: dir, limit: limit, orders: orders, permute: permute,
		sort: sort, compare: compare, runs: make([][]runSource[R], orders)}
}

// add appends records; when the buffer is full it is handed to a background spill.
func (s *fixedSorter[R]) add(rs []R) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(rs) > 0 {
		if s.buf == nil {
			s.buf = make([]R, 0, min(s.limit, max(len(rs), 4096)))
		}
		n := min(len(rs), s.limit-len(s.buf))
		s.buf = append(s.buf, rs[:n]...)
		rs = rs[n:]
		s.total += int64(n)
		if len(s.buf) >= s.limit {
			full := s.buf
			s.spilling.Wait()
			if s.err != nil {
				return s.err
			}
			s.buf, s.spare = s.spare[:0], nil
			s.spilling.Add(1)
			go func() {
				defer s.spilling.Done()
				if err := s.spill(full, false); err != nil {
					s.err = err
				}
				s.spare = full[:0]
			}()
		}
	}
	return nil
}

// spill sorts buf in every order and writes the runs; with keep, the final buffer
// stays in memory.
func (s *fixedSorter[R]) spill(buf []R, keep bool) error {
	if len(buf) == 0 {
		return nil
	}
	if cap(s.tmp) < len(buf) {
		s.tmp = make([]R, len(buf))
	}
	tmp := s.tmp[:len(buf)]
	for o := 0; o < s.orders; o++ {
		for i, r := range buf {
			buf[i] = s.permute(o, r)
		}
		s.sort(o, buf, tmp)
		src := runSource[R]{split: splitIndex(buf), n: int64(len(buf))}
		if keep {
			src.mem = append([]R(nil), buf...)
			s.runs[o] = append(s.runs[o], src)
			continue
		}
		src.path = filepath.Join(s.dir, fmt.Sprintf("%s-%d-%04d.run", s.name, o, s.nrun))
		if err := writeFixedRun(src.path, buf); err != nil {
			return fmt.Errorf("write sort run: %w", err)
		}
		s.runs[o] = append(s.runs[o], src)
	}
	if !keep {
		s.nrun++
	}
	return nil
}

// finish writes the last buffer, after the spill in flight. If nothing was spilled and
// the buffer is small enough to be held once per order, it stays in memory.
func (s *fixedSorter[R]) finish() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spilling.Wait()
	if s.err != nil {
		return s.err
	}
	keep := s.nrun == 0 && len(s.buf)*s.orders <= 2*s.limit
	err := s.spill(s.buf, keep)
	s.buf, s.tmp, s.spare = nil, nil, nil
	return err
}

// merge returns the merged records of one order (or of one half of it).
func (s *fixedSorter[R]) merge(order, half int) (*merger[R], error) {
	return openMerger(s.runs[order], half, s.compare)
}
