package ontology

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// pairSpool collects the (subject, object) pairs of each predicate while the node
// records are built from the SPO runs. The walk meets subjects in increasing order and
// each subject's objects in increasing order, which is the order of the 'P' index: the
// pairs need no sort of their own. Chunks of pairs stay in memory up to a budget and go
// to one temporary file beyond it.
type pairSpool struct {
	dir    string
	limit  int64 // bytes of chunks kept in memory
	mem    int64
	preds  []spoolPred
	file   *os.File
	w      *bufio.Writer
	off    int64
	closed bool
}

type spoolPred struct {
	cur    []uint64 // the chunk being filled: s, o, s, o, …
	chunks []spoolChunk
	pairs  int64
}

// spoolChunk is a full chunk, in memory (mem) or in the file (at off, n words).
type spoolChunk struct {
	mem []uint64
	off int64
	n   int
}

// Chunks grow from 16 to 4,096 pairs, so that thousands of rare predicates cost
// little.
const (
	spoolFirstWords = 32
	spoolMaxWords   = 8192
)

func newPairSpool(dir string, limitBytes int64, preds int) *pairSpool {
	return &pairSpool{dir: dir, limit: limitBytes, preds: make([]spoolPred, preds)}
}

// add appends the pair (s, o) of predicate p.
func (sp *pairSpool) add(p int, s, o uint64) error {
	pr := &sp.preds[p]
	if len(pr.cur) == cap(pr.cur) {
		if err := sp.seal(pr); err != nil {
			return err
		}
	}
	pr.cur = append(pr.cur, s, o)
	pr.pairs++
	return nil
}

// seal stores the full current chunk of pr: in memory while the spool's memory is
// within its limit (and then pr gets a new, larger chunk), else in the file (and the
// chunk buffer is reused).
func (sp *pairSpool) seal(pr *spoolPred) error {
	if len(pr.cur) > 0 && sp.mem > sp.limit {
		off, err := sp.write(pr.cur)
		if err != nil {
			return err
		}
		pr.chunks = append(pr.chunks, spoolChunk{off: off, n: len(pr.cur)})
		pr.cur = pr.cur[:0]
		return nil
	}
	if len(pr.cur) > 0 {
		pr.chunks = append(pr.chunks, spoolChunk{mem: pr.cur, n: len(pr.cur)})
	}
	n := min(max(2*cap(pr.cur), spoolFirstWords), spoolMaxWords)
	pr.cur = make([]uint64, 0, n)
	sp.mem += int64(8 * n)
	return nil
}

func (sp *pairSpool) write(words []uint64) (int64, error) {
	if sp.file == nil {
		f, err := os.Create(filepath.Join(sp.dir, "pairs.spool"))
		if err != nil {
			return 0, fmt.Errorf("spill pairs: %w", err)
		}
		sp.file, sp.w = f, bufio.NewWriterSize(f, 1<<20)
	}
	off := sp.off
	var b [8]byte
	for _, x := range words {
		binary.LittleEndian.PutUint64(b[:], x)
		if _, err := sp.w.Write(b[:]); err != nil {
			return 0, fmt.Errorf("spill pairs: %w", err)
		}
	}
	sp.off += int64(8 * len(words))
	return off, nil
}

// each calls fn with the pairs of predicate p, in order, chunk by chunk (s, o, s, o …).
func (sp *pairSpool) each(p int, fn func(words []uint64) error) error {
	if sp.w != nil {
		if err := sp.w.Flush(); err != nil {
			return fmt.Errorf("spill pairs: %w", err)
		}
	}
	pr := &sp.preds[p]
	var buf []uint64
	var raw []byte
	for _, c := range pr.chunks {
		words := c.mem
		if words == nil {
			if cap(raw) < 8*c.n {
				raw, buf = make([]byte, 8*c.n), make([]uint64, c.n)
			}
			raw, buf = raw[:8*c.n], buf[:c.n]
			if _, err := sp.file.ReadAt(raw, c.off); err != nil && err != io.EOF {
				return fmt.Errorf("read spilled pairs: %w", err)
			}
			for i := range buf {
				buf[i] = binary.LittleEndian.Uint64(raw[8*i:])
			}
			words = buf
		}
		if err := fn(words); err != nil {
			return err
		}
	}
	if len(pr.cur) > 0 {
		return fn(pr.cur)
	}
	return nil
}

func (sp *pairSpool) close() error {
	if sp.closed || sp.file == nil {
		return nil
	}
	sp.closed = true
	name := sp.file.Name()
	err := sp.file.Close()
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
