package ontology

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// The loader's external sort: records are collected in memory up to a budget, sorted,
// and written as runs (files of sorted records) when the budget is full; the last buffer
// is sorted and kept in memory as a run; the final pass merges the runs. When
// everything fits in the budget, nothing is written.

type words interface{ rec2 | rec3 }

// cursor yields sorted records; ok is false at the end.
type cursor[R any] interface {
	next() (r R, ok bool, err error)
	close() error
}

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

// writeFixedRun writes sorted records to a new file, as they are in memory.
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
	_, err = f.Write(recordBytes(rs))
	return err
}

// fixedFileCursor reads records [from, to) of a run file in blocks of a buffer outside
// the Go heap (freed by close).
type fixedFileCursor[R words] struct {
	f     *os.File
	buf   []R
	block int   // records per read
	off   int64 // file offset of the next block
	left  int64 // records not yet read into buf
}

// Read buffers of the final merge: every file cursor open at once shares
// loader.mergeBytes, within these bounds (bytes).
const (
	minReadBlock = 16 << 10
	maxReadBlock = 1 << 20
)

func openFixedRun[R words](path string, from, to int64, blockBytes int) (*fixedFileCursor[R], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var r R
	return &fixedFileCursor[R]{f: f, block: max(blockBytes/(8*len(r)), 1), off: from * int64(8*len(r)), left: to - from}, nil
}

// fill reads the next block of the run; it returns no records at the end. The block is
// valid until the next fill.
func (c *fixedFileCursor[R]) fill() ([]R, error) {
	if c.left <= 0 {
		return nil, nil
	}
	if c.buf == nil {
		b, err := allocRecords[R](c.block)
		if err != nil {
			return nil, err
		}
		c.buf = b
	}
	n := min(int64(c.block), c.left)
	b := recordBytes(c.buf[:n])
	if k, err := c.f.ReadAt(b, c.off); k < len(b) || err != nil && !errors.Is(err, io.EOF) {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	c.off += int64(len(b))
	c.left -= n
	return c.buf[:n], nil
}

func (c *fixedFileCursor[R]) close() error {
	freeRecords(c.buf)
	c.buf = nil
	return c.f.Close()
}

// openRun opens (one half of) a run for a wordMerger.
func openRun[R words](s runSource[R], half, blockBytes int) (wordSource[R], error) {
	from, to := int64(0), s.n
	switch half {
	case halfLow:
		to = s.split
	case halfLit:
		from = s.split
	}
	if s.path == "" {
		return wordSource[R]{buf: s.mem[from:to]}, nil
	}
	c, err := openFixedRun[R](s.path, from, to, blockBytes)
	if err != nil {
		return wordSource[R]{}, err
	}
	b, err := c.fill()
	if err != nil {
		_ = c.close()
		return wordSource[R]{}, err
	}
	return wordSource[R]{buf: b, file: c}, nil
}

// splitIndex returns the index of the first record whose first word has the literal
// bit set.
func splitIndex[R words](rs []R) int64 {
	i, _ := slices.BinarySearchFunc(rs, literalBit, func(r R, t uint64) int { return cmp.Compare(r[0], t) })
	return int64(i)
}

// loserTree picks the smallest of k sorted sequences' head keys with a tree of losers:
// after the winner's sequence advances, log2(k) matches on the path from its leaf to
// the root find the next one, each comparing words inline (a binary heap needs up to
// twice as many comparisons, and swaps). Equal keys come out in leaf order. The final
// merge of a load passes every record through one.
type loserTree[K words] struct {
	key  []K    // the head key of each leaf (a sequence, or padding up to a power of two)
	live []bool // whether the leaf has a head
	tree []int  // tree[0] is the winning leaf; tree[1:] the losers of each match
}

// newLoserTree makes the tree of n leaves, none live yet; set key and live, then play.
func newLoserTree[K words](n int) loserTree[K] {
	k := 1
	for k < n {
		k *= 2
	}
	return loserTree[K]{key: make([]K, k), live: make([]bool, k), tree: make([]int, k)}
}

// play plays every match.
func (t *loserTree[K]) play() { t.tree[0] = t.match(1) }

// match plays the matches of the subtree at node, records the losers, and returns
// the winner.
func (t *loserTree[K]) match(node int) int {
	k := len(t.tree)
	if node >= k {
		return node - k
	}
	a, b := t.match(2*node), t.match(2*node+1)
	if t.less(b, a) {
		a, b = b, a
	}
	t.tree[node] = b
	return a
}

// less says whether leaf a's head comes before leaf b's; a leaf without one comes last.
func (t *loserTree[K]) less(a, b int) bool {
	if !t.live[a] || !t.live[b] {
		return t.live[a]
	}
	x, y := t.key[a], t.key[b]
	for i := 0; i < len(x); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return a < b
}

// winner returns the leaf with the smallest head; ok is false when no leaf has one.
func (t *loserTree[K]) winner() (leaf int, ok bool) {
	return t.tree[0], t.live[t.tree[0]]
}

// replay finds the new winner after leaf w's head changed (w must be the winner).
func (t *loserTree[K]) replay(w int) {
	for node := (w + len(t.tree)) / 2; node >= 1; node /= 2 {
		if t.less(t.tree[node], w) {
			t.tree[node], w = w, t.tree[node]
		}
	}
	t.tree[0] = w
}

// wordMerger merges sorted runs of fixed-size records (duplicates are kept; callers
// drop them, since equal records are adjacent). It reads each run's records from a
// block in place, refilling from the run's file only at the end of a block, with the
// run's head record as its key in a loserTree.
type wordMerger[R words] struct {
	srcs []wordSource[R]
	t    loserTree[R]
}

// wordSource is one run of a wordMerger: the unread records of its current block (the
// whole run when it is in memory) and, for a run file, its cursor.
type wordSource[R words] struct {
	buf  []R
	file *fixedFileCursor[R]
}

// pop removes the source's head record and returns it; ok is false at the end of the run.
func (s *wordSource[R]) pop() (r R, ok bool, err error) {
	if len(s.buf) == 0 {
		if s.file == nil {
			return r, false, nil
		}
		if s.buf, err = s.file.fill(); err != nil || len(s.buf) == 0 {
			return r, false, err
		}
	}
	r = s.buf[0]
	s.buf = s.buf[1:]
	return r, true, nil
}

// openMerger opens (one half of) the runs of one order and merges them; run files are
// read in blocks of blockBytes.
func openMerger[R words](srcs []runSource[R], half, blockBytes int) (*wordMerger[R], error) {
	m := &wordMerger[R]{}
	for _, s := range srcs {
		ws, err := openRun(s, half, blockBytes)
		if err != nil {
			_ = m.close()
			return nil, err
		}
		m.srcs = append(m.srcs, ws)
	}
	if len(m.srcs) <= 1 {
		return m, nil // one run (or none): no tree
	}
	m.t = newLoserTree[R](len(m.srcs))
	for i := range m.srcs {
		var err error
		if m.t.key[i], m.t.live[i], err = m.srcs[i].pop(); err != nil {
			_ = m.close()
			return nil, err
		}
	}
	m.t.play()
	return m, nil
}

// next returns the smallest remaining record.
func (m *wordMerger[R]) next() (r R, ok bool, err error) {
	switch len(m.srcs) {
	case 0:
		return r, false, nil
	case 1:
		return m.srcs[0].pop()
	}
	w, ok := m.t.winner()
	if !ok {
		return r, false, nil
	}
	r = m.t.key[w]
	if m.t.key[w], m.t.live[w], err = m.srcs[w].pop(); err != nil {
		return r, false, err
	}
	m.t.replay(w)
	return r, true, nil
}

func (m *wordMerger[R]) close() error {
	var errs []error
	for _, s := range m.srcs {
		if s.file != nil {
			errs = append(errs, s.file.close())
		}
	}
	return errors.Join(errs...)
}

// background runs the spill of one full buffer at a time while the parsers fill the
// next; the buffer comes back as the spare one once written.
type background[B any] struct {
	wg    sync.WaitGroup
	err   error
	spare B
}

// rotate waits for the spill in flight, starts spill(full) in the background, and
// returns an empty buffer to fill next, made from the spare one by fresh.
func (g *background[B]) rotate(full B, fresh func(B) (B, error), spill func(B) error) (B, error) {
	var zero B
	if err := g.wait(); err != nil {
		return zero, err
	}
	next, err := fresh(g.spare)
	if err != nil {
		return zero, err
	}
	g.spare = zero
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := spill(full); err != nil {
			g.err = err
		}
		g.spare = full
	}()
	return next, nil
}

// wait waits for the spill in flight and returns its error.
func (g *background[B]) wait() error {
	g.wg.Wait()
	return g.err
}

// fixedSorter collects fixed-size records and sorts them into runs, in one or two
// orders (the triple sorter keeps each buffer in SPO and OPS order). It owns three
// buffers of limit records, outside the Go heap: one that the parsers fill, one that a
// background goroutine sorts and writes while they do, and the sort's scratch space.
// The last buffer is not written: it is sorted in place and kept in memory (its second
// order in the spare buffer), so a load that fits in the budget writes no run at all.
type fixedSorter[R words] struct {
	mu    sync.Mutex // guards buf and total
	buf   []R
	total int64

	bg   background[[]R] // the spill in flight; it owns tmp, runs and nrun
	tmp  []R
	runs [][]runSource[R] // per order
	nrun int
	kept [][]R // buffers that hold in-memory runs, freed by release

	name    string
	dir     string
	limit   int // records per buffer
	orders  int
	permute func(order int, r R) R // from the previous order's layout (or the input) to this order's
	sort    func(order int, rs, tmp []R)
}

func newFixedSorter[R words](name, dir string, limitBytes int64, orders int,
	permute func(order int, r R) R, sort func(order int, rs, tmp []R)) *fixedSorter[R] {
	if orders < 1 || orders > 2 {
		panic("ontology: a fixed sorter keeps one or two orders") // a programming error, not input
	}
	var r R
	limit := int(limitBytes / int64(3*8*len(r)))
	limit = max(limit, 1024)
	return &fixedSorter[R]{name: name, dir: dir, limit: limit, orders: orders, permute: permute,
		sort: sort, runs: make([][]runSource[R], orders)}
}

// buffer returns an empty buffer of limit records, reusing b if it has one.
func (s *fixedSorter[R]) buffer(b []R) ([]R, error) {
	if cap(b) >= s.limit {
		return b[:0], nil
	}
	b, err := allocRecords[R](s.limit)
	return b[:0], err
}

// add appends records; when the buffer is full it is handed to a background spill.
func (s *fixedSorter[R]) add(rs []R) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(rs) > 0 {
		if s.buf == nil {
			b, err := s.buffer(nil)
			if err != nil {
				return err
			}
			s.buf = b
		}
		n := min(len(rs), s.limit-len(s.buf))
		s.buf = append(s.buf, rs[:n]...) // within capacity: no reallocation
		rs = rs[n:]
		s.total += int64(n)
		if len(s.buf) < s.limit {
			continue
		}
		b, err := s.bg.rotate(s.buf, s.buffer, s.spill)
		if err != nil {
			return err
		}
		s.buf = b
	}
	return nil
}

// spill sorts buf in every order and writes the runs.
func (s *fixedSorter[R]) spill(buf []R) error {
	if len(buf) == 0 {
		return nil
	}
	if s.tmp == nil {
		var err error
		if s.tmp, err = allocRecords[R](s.limit); err != nil {
			return err
		}
	}
	tmp := s.tmp[:len(buf)]
	for o := 0; o < s.orders; o++ {
		for i, r := range buf {
			buf[i] = s.permute(o, r)
		}
		s.sort(o, buf, tmp)
		src := runSource[R]{split: splitIndex(buf), n: int64(len(buf))}
		src.path = filepath.Join(s.dir, fmt.Sprintf("%s-%d-%04d.run", s.name, o, s.nrun))
		if err := writeFixedRun(src.path, buf); err != nil {
			return fmt.Errorf("write sort run: %w", err)
		}
		s.runs[o] = append(s.runs[o], src)
	}
	s.nrun++
	return nil
}

// finish sorts the last buffer, after the spill in flight, and keeps it in memory: in
// the first order in place, in the second order in the spare buffer.
func (s *fixedSorter[R]) finish() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.bg.wait(); err != nil {
		return err
	}
	buf := s.buf
	s.buf = nil
	if len(buf) == 0 {
		freeRecords(buf)
		freeRecords(s.bg.spare)
		freeRecords(s.tmp)
		s.bg.spare, s.tmp = nil, nil
		return nil
	}
	if s.tmp == nil {
		var err error
		if s.tmp, err = allocRecords[R](len(buf)); err != nil {
			return err
		}
	}
	tmp := s.tmp[:len(buf)]
	bufs := [][]R{buf}
	if s.orders == 2 {
		second := s.bg.spare
		if cap(second) < len(buf) {
			freeRecords(second)
			var err error
			if second, err = allocRecords[R](len(buf)); err != nil {
				return err
			}
		}
		second = second[:len(buf)]
		for i, r := range buf {
			second[i] = s.permute(1, s.permute(0, r))
		}
		bufs = append(bufs, second)
	} else {
		freeRecords(s.bg.spare)
	}
	s.bg.spare = nil
	for o, b := range bufs {
		if o == 0 {
			for i, r := range b {
				b[i] = s.permute(0, r)
			}
		}
		s.sort(o, b, tmp)
		s.runs[o] = append(s.runs[o], runSource[R]{mem: b, split: splitIndex(b), n: int64(len(b))})
		s.kept = append(s.kept, b)
	}
	freeRecords(s.tmp)
	s.tmp = nil
	return nil
}

// merge returns the merged records of one order (or of one half of it), reading run
// files in blocks of blockBytes.
func (s *fixedSorter[R]) merge(order, half, blockBytes int) (*wordMerger[R], error) {
	return openMerger(s.runs[order], half, blockBytes)
}

// fileRuns is the number of runs of one order written to files.
func (s *fixedSorter[R]) fileRuns() int {
	n := 0
	for _, r := range s.runs[0] {
		if r.path != "" {
			n++
		}
	}
	return n
}

// release frees the buffers of the in-memory runs; no merger may be open.
func (s *fixedSorter[R]) release() {
	_ = s.bg.wait()
	for _, b := range s.kept {
		freeRecords(b)
	}
	freeRecords(s.buf)
	freeRecords(s.bg.spare)
	freeRecords(s.tmp)
	s.kept, s.buf, s.bg.spare, s.tmp = nil, nil, nil, nil
	for o := range s.runs {
		s.runs[o] = nil
	}
}
