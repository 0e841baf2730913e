package ontology

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
)

// varItem is a record of the variable-length sorter: two sort keys and a payload (a
// term encoding, or a literal's normal form). A payload returned by a cursor stays valid
// until the cursor's next call but one. A run is sorted by keys then payload; the
// merge of the runs orders by keys, and records of equal keys (the same term, or a
// hash collision that the consumers detect) in run order.
type varItem struct {
	k1, k2 uint64
	data   []byte
}

// varSorter is the external sorter for variable-length records. Like fixedSorter it
// fills one buffer while the previous one is sorted and written in the background, and
// keeps the last buffer in memory. A buffer is an arena of payload bytes and an index
// of records (k1, k2, offset<<32 | length), both outside the Go heap; the index is
// sorted with the word sort, then each run of equal keys by payload bytes.
type varSorter struct {
	mu    sync.Mutex // guards cur and total
	cur   varBuf
	total int64

	bg   background[varBuf] // the spill in flight; it owns tmp, runs and nrun
	tmp  []rec3
	runs []varRun
	nrun int
	kept []varBuf

	name     string
	dir      string
	arenaCap int // payload bytes per buffer
	recCap   int // records per buffer
}

type varBuf struct {
	arena []byte
	recs  []rec3
}

func (b varBuf) item(r rec3) varItem {
	off, n := r[2]>>32, r[2]&(1<<32-1)
	return varItem{k1: r[0], k2: r[1], data: b.arena[off : off+n : off+n]}
}

func (b varBuf) free() {
	freeRecords(b.arena)
	freeRecords(b.recs)
}

// varRun is a sorted run; split locates the first record with a literal key (byte
// offset in the file, index in memory).
type varRun struct {
	path  string
	mem   varBuf
	split int64
	size  int64
}

func newVarSorter(name, dir string, limitBytes int64) *varSorter {
	// Two buffers (one filling, one spilling) of arena and index, and the index's sort
	// scratch: 30 % of the budget per arena, 40 % for the three indexes.
	arena := int(min(max(limitBytes*3/10, 1<<20), 1<<32-1))
	recs := int(max(limitBytes*4/10/(3*24), 1<<12))
	return &varSorter{name: name, dir: dir, arenaCap: arena, recCap: recs}
}

func (s *varSorter) buffer(b varBuf) (varBuf, error) {
	if b.arena != nil {
		return varBuf{arena: b.arena[:0], recs: b.recs[:0]}, nil
	}
	arena, err := allocRecords[byte](s.arenaCap)
	if err != nil {
		return varBuf{}, err
	}
	recs, err := allocRecords[rec3](s.recCap)
	if err != nil {
		freeRecords(arena)
		return varBuf{}, err
	}
	return varBuf{arena: arena[:0], recs: recs[:0]}, nil
}

// add appends a batch of records.
func (s *varSorter) add(items []varItem) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		if len(it.data) > s.arenaCap {
			return fmt.Errorf("ontology: a record of %d bytes does not fit the %s sort buffer of %d bytes (raise the sort memory)", len(it.data), s.name, s.arenaCap)
		}
		if s.cur.arena == nil {
			b, err := s.buffer(varBuf{})
			if err != nil {
				return err
			}
			s.cur = b
		}
		if len(s.cur.recs) == s.recCap || len(s.cur.arena)+len(it.data) > s.arenaCap {
			if err := s.rotate(); err != nil {
				return err
			}
		}
		off := len(s.cur.arena)
		s.cur.arena = append(s.cur.arena, it.data...) // within capacity
		s.cur.recs = append(s.cur.recs, rec3{it.k1, it.k2, uint64(off)<<32 | uint64(len(it.data))})
		s.total++
	}
	return nil
}

// rotate hands the full current buffer to a background spill.
func (s *varSorter) rotate() error {
	b, err := s.bg.rotate(s.cur, s.buffer, s.spill)
	if err == nil {
		s.cur = b
	}
	return err
}

// sortBuffer sorts b.recs by (k1, k2, payload bytes).
func (s *varSorter) sortBuffer(b varBuf) error {
	if s.tmp == nil {
		var err error
		if s.tmp, err = allocRecords[rec3](s.recCap); err != nil {
			return err
		}
	}
	sortWords(b.recs, s.tmp[:len(b.recs)])
	// Equal keys (duplicates, or a hash collision) are then ordered by their bytes.
	rs := b.recs
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && rs[j][0] == rs[i][0] && rs[j][1] == rs[i][1] {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(rs[i:j], func(x, y rec3) int { return bytes.Compare(b.item(x).data, b.item(y).data) })
		}
		i = j
	}
	return nil
}

func (s *varSorter) spill(b varBuf) error {
	if len(b.recs) == 0 {
		return nil
	}
	if err := s.sortBuffer(b); err != nil {
		return err
	}
	path := filepath.Join(s.dir, fmt.Sprintf("%s-%04d.run", s.name, s.nrun))
	split, size, err := writeVarRun(path, b)
	if err != nil {
		return fmt.Errorf("write sort run: %w", err)
	}
	s.runs = append(s.runs, varRun{path: path, split: split, size: size})
	s.nrun++
	return nil
}

// writeVarRun writes sorted records; it returns the byte offset of the first record
// with a literal key and the size of the file.
func writeVarRun(path string, b varBuf) (split, size int64, err error) {
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
	var sink byte
	for i, r := range b.recs {
		if i%touchAhead == 0 {
			sink += touchPayloads(b, b.recs[i:min(i+touchAhead, len(b.recs))])
		}
		it := b.item(r)
		if split < 0 && it.k1 >= literalBit {
			split = size
		}
		binary.LittleEndian.PutUint64(hdr[0:], it.k1)
		binary.LittleEndian.PutUint64(hdr[8:], it.k2)
		n := binary.PutUvarint(hdr[16:], uint64(len(it.data)))
		if _, err := w.Write(hdr[:16+n]); err != nil {
			return 0, 0, err
		}
		if _, err := w.Write(it.data); err != nil {
			return 0, 0, err
		}
		size += int64(16+n) + int64(len(it.data))
	}
	if split < 0 {
		split = size
	}
	touchSink.Add(uint32(sink)) // once per run; spills of two sorters may run at once
	return split, size, w.Flush()
}

// touchAhead is how many records writeVarRun touches before it copies them.
const touchAhead = 32

// touchSink keeps the bytes touchPayloads read, so that the compiler keeps the reads.
var touchSink atomic.Uint32

// touchPayloads reads the first byte of the payload of each record in rs. The sorted
// records point into the arena in random order, so each payload is a cache (and often
// a TLB) miss; issued together, in a loop with nothing else to wait for, the misses
// overlap, and the copy that follows finds the bytes in the cache (the profile of the
// 5M load spent 1.0 of 15 CPU-s copying payloads one miss at a time).
func touchPayloads(b varBuf, rs []rec3) byte {
	var x byte
	for _, r := range rs {
		if off, n := r[2]>>32, r[2]&(1<<32-1); n > 0 && off < uint64(len(b.arena)) {
			x ^= b.arena[off]
		}
	}
	return x
}

// finish sorts the last buffer after the spill in flight and keeps it in memory.
func (s *varSorter) finish() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.bg.wait(); err != nil {
		return err
	}
	b := s.cur
	s.cur = varBuf{}
	s.bg.spare.free()
	s.bg.spare = varBuf{}
	defer func() {
		freeRecords(s.tmp)
		s.tmp = nil
	}()
	if len(b.recs) == 0 {
		b.free()
		return nil
	}
	if err := s.sortBuffer(b); err != nil {
		return err
	}
	split, _ := slices.BinarySearchFunc(b.recs, literalBit, func(r rec3, t uint64) int { return cmp.Compare(r[0], t) })
	s.runs = append(s.runs, varRun{mem: b, split: int64(split), size: int64(len(b.recs))})
	s.kept = append(s.kept, b)
	return nil
}

// release frees the buffers of the in-memory runs; no merger may be open.
func (s *varSorter) release() {
	_ = s.bg.wait()
	for _, b := range s.kept {
		b.free()
	}
	s.cur.free()
	s.bg.spare.free()
	freeRecords(s.tmp)
	s.kept, s.runs, s.cur, s.bg.spare, s.tmp = nil, nil, varBuf{}, varBuf{}, nil
}

// varMemCursor reads an in-memory run.
type varMemCursor struct {
	b     varBuf
	rs    []rec3
	i     int
	touch byte
}

// prefetchAhead is how many records ahead a memory cursor touches the payload: the
// index is sorted but the arena is in arrival order, so every payload is a cache (and
// TLB) miss; touching the payload of a later record early lets the processor overlap
// those misses with the work on the current ones.
const prefetchAhead = 8

func (c *varMemCursor) next() (varItem, bool, error) {
	if c.i >= len(c.rs) {
		return varItem{}, false, nil
	}
	if j := c.i + prefetchAhead; j < len(c.rs) && c.rs[j][2]>>32 < uint64(len(c.b.arena)) {
		c.touch += c.b.arena[c.rs[j][2]>>32]
	}
	c.i++
	return c.b.item(c.rs[c.i-1]), true, nil
}

func (c *varMemCursor) close() error { return nil }

func (s *varSorter) merge(half, blockBytes int) (*varMerger, error) {
	var cs []cursor[varItem]
	for _, r := range s.runs {
		if r.path == "" {
			rs := r.mem.recs
			switch half {
			case halfLow:
				rs = rs[:r.split]
			case halfLit:
				rs = rs[r.split:]
			}
			cs = append(cs, &varMemCursor{b: r.mem, rs: rs})
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
		cs = append(cs, &varFileCursor{f: f, r: runReader{f: f, off: from, end: to, block: blockBytes}})
	}
	return newVarMerger(cs)
}

// varMerger merges the runs of a varSorter: the cursors' head records, keyed by
// (k1, k2) in a loserTree.
type varMerger struct {
	cs   []cursor[varItem]
	head []varItem
	t    loserTree[rec2]
}

func newVarMerger(cs []cursor[varItem]) (*varMerger, error) {
	m := &varMerger{cs: cs}
	if len(cs) <= 1 {
		return m, nil // one run (or none): no tree
	}
	m.t = newLoserTree[rec2](len(cs))
	m.head = make([]varItem, len(cs))
	for i := range cs {
		if err := m.advance(i); err != nil {
			_ = m.close()
			return nil, err
		}
	}
	m.t.play()
	return m, nil
}

// advance reads cursor i's next record into its leaf.
func (m *varMerger) advance(i int) error {
	it, ok, err := m.cs[i].next()
	m.head[i], m.t.key[i], m.t.live[i] = it, rec2{it.k1, it.k2}, ok
	return err
}

// next returns the smallest remaining record.
func (m *varMerger) next() (varItem, bool, error) {
	switch len(m.cs) {
	case 0:
		return varItem{}, false, nil
	case 1:
		return m.cs[0].next()
	}
	w, ok := m.t.winner()
	if !ok {
		return varItem{}, false, nil
	}
	it := m.head[w]
	if err := m.advance(w); err != nil {
		return it, false, err
	}
	m.t.replay(w)
	return it, true, nil
}

func (m *varMerger) close() error {
	var errs []error
	for _, c := range m.cs {
		errs = append(errs, c.close())
	}
	return errors.Join(errs...)
}

// fileRuns is the number of runs written to files.
func (s *varSorter) fileRuns() int {
	n := 0
	for _, r := range s.runs {
		if r.path != "" {
			n++
		}
	}
	return n
}

// runReader reads bytes [off, end) of a run file through a buffer of block bytes
// outside the Go heap (freed by release).
type runReader struct {
	f        *os.File
	off, end int64 // the file range not yet read into buf
	block    int
	buf      []byte
	pos      int
}

// fill reads the next block; it returns io.EOF at the end of the range.
func (r *runReader) fill() error {
	if r.off >= r.end {
		return io.EOF
	}
	if r.buf == nil {
		b, err := allocRecords[byte](max(r.block, 1))
		if err != nil {
			return err
		}
		r.buf = b
	}
	n := int(min(int64(cap(r.buf)), r.end-r.off))
	k, err := r.f.ReadAt(r.buf[:n], r.off)
	if k < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	r.buf, r.pos = r.buf[:n], 0
	r.off += int64(n)
	return nil
}

func (r *runReader) Read(p []byte) (int, error) {
	if r.pos == len(r.buf) {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf[r.pos:])
	r.pos += n
	return n, nil
}

func (r *runReader) ReadByte() (byte, error) {
	if r.pos == len(r.buf) {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	r.pos++
	return r.buf[r.pos-1], nil
}

func (r *runReader) release() {
	freeRecords(r.buf)
	r.buf = nil
}

type varFileCursor struct {
	f    *os.File
	r    runReader
	bufs [2][]byte
	flip int
}

func (c *varFileCursor) next() (varItem, bool, error) {
	// Most records lie whole in the read buffer: decode them there.
	if rest := c.r.buf[c.r.pos:]; len(rest) > 16 {
		if n, w := binary.Uvarint(rest[16:]); w > 0 && n <= uint64(len(rest)-16-w) {
			c.r.pos += 16 + w + int(n)
			return c.item(rest[:16], rest[16+w:16+w+int(n)]), true, nil
		}
	}
	var hdr [16]byte
	if _, err := io.ReadFull(&c.r, hdr[:]); err != nil {
		if err == io.EOF {
			return varItem{}, false, nil
		}
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	n, err := binary.ReadUvarint(&c.r)
	if err != nil {
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	b := c.payload(n)
	if _, err := io.ReadFull(&c.r, b); err != nil {
		return varItem{}, false, fmt.Errorf("read sort run %s: %w", c.f.Name(), err)
	}
	return varItem{k1: binary.LittleEndian.Uint64(hdr[0:]), k2: binary.LittleEndian.Uint64(hdr[8:]), data: b}, true, nil
}

// payload returns the other of the cursor's two payload buffers, of n bytes: the
// record returned before stays valid while the caller reads the next one.
func (c *varFileCursor) payload(n uint64) []byte {
	c.flip ^= 1
	b := c.bufs[c.flip]
	if uint64(cap(b)) < n {
		b = make([]byte, n)
	}
	b = b[:n]
	c.bufs[c.flip] = b
	return b
}

// item copies a record found whole in the read buffer (hdr, its 16-byte header, and
// data, its payload) out of it: the next fill overwrites the buffer.
func (c *varFileCursor) item(hdr, data []byte) varItem {
	b := c.payload(uint64(len(data)))
	copy(b, data)
	return varItem{k1: binary.LittleEndian.Uint64(hdr[0:]), k2: binary.LittleEndian.Uint64(hdr[8:]), data: b}
}

func (c *varFileCursor) close() error {
	c.r.release()
	return c.f.Close()
}
