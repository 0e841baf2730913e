package ontology

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/pb"
	"github.com/dgraph-io/ristretto/v2/z"
	"github.com/trawl-dev/trawl/graph"
	"golang.org/x/sync/errgroup"
)

// kbInfo is the metadata of a KB, stored under 'M' "info".
type kbInfo struct {
	Layout      int            `json:"layout"`
	Salt        uint64         `json:"salt"`
	LiteralBits uint           `json:"literal_bucket_bits"`
	BandBits    uint           `json:"band_bucket_bits"`
	NodeBits    uint           `json:"node_bucket_bits"`
	ShingleK    int            `json:"shingle_k"`
	MinHashes   int            `json:"minhashes"`
	BandRows    int            `json:"band_rows"`
	Created     time.Time      `json:"created"`
	Sources     []SourceReport `json:"sources"`
	Parsed      int64          `json:"parsed"`
	BadLines    int64          `json:"bad_lines"`
	Facts       int64          `json:"facts"`
	Nodes       int64          `json:"nodes"`
	Literals    int64          `json:"literals"`
	Entities    int64          `json:"entities"`
	Classes     int64          `json:"classes"`
}

// relStats are the per-predicate counts gathered while the indexes are written.
type relStats struct {
	facts, subjects, objects []int64 // by predicate index
	blocks                   []uint32
}

// kvWriter batches key-value pairs for Badger's StreamWriter.
type kvWriter struct {
	sw    *badger.StreamWriter
	buf   *z.Buffer
	kv    pb.KV
	flush int // batch size: the table size (loader.tableBytes)
}

func (l *loader) newKVWriter(sw *badger.StreamWriter) *kvWriter {
	n := int(l.tableBytes)
	return &kvWriter{sw: sw, buf: z.NewBuffer(min(n, 256<<10), "trawl.kv"), flush: n} // grows up to the flush size
}

func (w *kvWriter) put(stream uint32, key, value []byte) error {
	appendKV(w.buf, key, value, stream)
	if w.buf.LenNoPadding() >= w.flush {
		return w.flushBatch()
	}
	return nil
}

// appendKV adds the protobuf encoding of pb.KV{Key, Value, Version: 1, StreamId} to
// buf, as badger.KVToBuffer does, without reflection (fields 1, 2, 4 and 10 of
// badgerpb4.proto; TestAppendKV checks the bytes against the protobuf library).
func appendKV(buf *z.Buffer, key, value []byte, stream uint32) {
	size := 1 + uvarintLen(uint64(len(key))) + len(key) + 2 + 1 + uvarintLen(uint64(stream))
	if len(value) > 0 {
		size += 1 + uvarintLen(uint64(len(value))) + len(value)
	}
	b := buf.SliceAllocate(size)[:0]
	b = append(b, 0x0a)
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	if len(value) > 0 {
		b = append(b, 0x12)
		b = binary.AppendUvarint(b, uint64(len(value)))
		b = append(b, value...)
	}
	b = append(b, 0x20, 0x01, 0x50)
	_ = binary.AppendUvarint(b, uint64(stream))
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// done closes a stream, so that Badger releases its table builder.
func (w *kvWriter) done(stream uint32) error {
	w.kv = pb.KV{StreamId: stream, StreamDone: true}
	badger.KVToBuffer(&w.kv, w.buf)
	return nil
}

func (w *kvWriter) flushBatch() error {
	if w.buf.LenNoPadding() == 0 {
		return nil
	}
	err := w.sw.Write(w.buf)
	w.buf.Reset()
	return err
}

func (w *kvWriter) close() error {
	err := w.flushBatch()
	_ = w.buf.Release()
	return err
}

// build writes every index of the parsed data into db with a StreamWriter, then the
// relation table and the metadata, and last the "complete" marker.
func (l *loader) build(db *badger.DB) error {
	start := time.Now()
	preds := l.preds.list
	relOf := relationNumbers(preds)
	typeIdx, subIdx := -1, -1
	for i, p := range preds {
		switch p.iri {
		case graph.RDFType:
			typeIdx = i
		case graph.SubClassOf:
			subIdx = i
		}
	}
	newStats := func() *relStats {
		return &relStats{facts: make([]int64, len(preds)), subjects: make([]int64, len(preds)),
			objects: make([]int64, len(preds)), blocks: make([]uint32, len(preds))}
	}
	st, stLit := newStats(), newStats()
	info := &kbInfo{Layout: LayoutVersion, Salt: l.salt, ShingleK: graph.BandShingleK, MinHashes: graph.MinHashes,
		BandRows: graph.BandRows, Created: time.Now().UTC(), Sources: l.report.Sources,
		Parsed: l.parsed.Load(), BadLines: l.bad.Load(),
		LiteralBits: bucketBits(l.lits.total), BandBits: bandBucketBits(l.bands.total),
		NodeBits: nodeBucketBits(l.terms.total)}
	litInfo := kbInfo{NodeBits: info.NodeBits}

	l.readBlock = l.mergeReadBlock()
	sw := db.NewStreamWriter()
	if err := sw.Prepare(); err != nil {
		return fmt.Errorf("prepare the KB for writing: %w", err)
	}
	defer sw.Cancel()
	g, ctx := errgroup.WithContext(l.ctx)
	// Nodes below and above the literal bit are written in parallel, as two streams.
	// The subjects (and so the pairs of the 'P' index, collected in a spool) are all in
	// the lower half.
	spool := newPairSpool(l.tmp, l.pairBytes, len(preds))
	defer func() { _ = spool.close() }()
	g.Go(func() error {
		if err := l.buildNodes(ctx, sw, halfLow, relOf, typeIdx, subIdx, st, info, spool); err != nil {
			return err
		}
		return l.buildPairs(ctx, sw, relOf, st, spool)
	})
	g.Go(func() error { return l.buildNodes(ctx, sw, halfLit, relOf, typeIdx, subIdx, stLit, &litInfo, nil) })
	g.Go(func() error {
		if err := l.buildLiterals(ctx, sw, info.LiteralBits); err != nil {
			return err
		}
		if err := l.buildBands(ctx, sw, info.BandBits); err != nil {
			return err
		}
		return l.buildDates(ctx, sw)
	})
	if err := g.Wait(); err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("write the KB: %w", err)
	}
	for i := range preds {
		st.facts[i] += stLit.facts[i]
		st.subjects[i] += stLit.subjects[i]
		st.objects[i] += stLit.objects[i]
	}
	info.Nodes += litInfo.Nodes
	info.Literals += litInfo.Literals
	info.Entities += litInfo.Entities
	info.Classes += litInfo.Classes

	if err := writeMetadata(db, preds, relOf, st, info); err != nil {
		return err
	}
	l.report.Facts, l.report.Nodes, l.report.Literals = info.Facts, info.Nodes, info.Literals
	l.report.Entities, l.report.Classes, l.report.Relations = info.Entities, info.Classes, len(preds)
	l.report.IndexTime = time.Since(start)
	return nil
}

// mergeReadBlock shares the read buffers of the final merge (loader.mergeBytes) among
// the run files open at once: the two halves of the nodes merge each the subject and
// object runs and the dictionary runs, while the literal, band and date indexes are
// merged one after the other.
func (l *loader) mergeReadBlock() int {
	files := 2*(2*l.triples.fileRuns()+l.terms.fileRuns()) +
		max(l.lits.fileRuns(), l.bands.fileRuns(), l.dates.fileRuns())
	if files == 0 {
		return minReadBlock
	}
	return int(min(max(l.mergeBytes/int64(files), minReadBlock), maxReadBlock))
}

// relationNumbers numbers the relations in IRI order, so that numbering does not
// depend on the order in which parallel workers met them.
func relationNumbers(preds []predEntry) []graph.Rel {
	order := make([]int, len(preds))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(preds[a].iri, preds[b].iri) })
	relOf := make([]graph.Rel, len(preds))
	for rank, pi := range order {
		relOf[pi] = graph.Rel(2 * rank)
	}
	return relOf
}

// writeMetadata writes the relation table and the metadata (info.Facts set from the
// statistics), then the "complete" marker, last, and syncs the KB.
func writeMetadata(db *badger.DB, preds []predEntry, relOf []graph.Rel, st *relStats, info *kbInfo) error {
	wb := db.NewWriteBatch()
	defer wb.Cancel()
	var facts int64
	for pi, p := range preds {
		v := binary.BigEndian.AppendUint64(nil, p.pid)
		v = binary.BigEndian.AppendUint64(v, uint64(st.facts[pi]))
		v = binary.BigEndian.AppendUint64(v, uint64(st.subjects[pi]))
		v = binary.BigEndian.AppendUint64(v, uint64(st.objects[pi]))
		v = binary.BigEndian.AppendUint32(v, st.blocks[pi])
		v = append(v, p.iri...)
		if err := wb.Set(relKey(nil, pfxRelation, relOf[pi]), v); err != nil {
			return err
		}
		facts += st.facts[pi]
	}
	info.Facts = facts
	js, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := wb.Set(metaKey("info"), js); err != nil {
		return err
	}
	if err := wb.Set(metaKey("layout"), binary.BigEndian.AppendUint32(nil, LayoutVersion)); err != nil {
		return err
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("write the KB metadata: %w", err)
	}
	if err := db.Update(func(txn *badger.Txn) error {
		return txn.Set(metaKey("complete"), []byte(time.Now().UTC().Format(time.RFC3339)))
	}); err != nil {
		return fmt.Errorf("mark the KB complete: %w", err)
	}
	if err := db.Sync(); err != nil {
		return fmt.Errorf("sync the KB: %w", err)
	}
	return nil
}

// buildNodes merges the facts by subject and by object with the dictionary, and writes
// one record per node ('N'), the instances of each class ('I') and the entity list
// ('E'). It also counts facts, distinct subjects and distinct objects per predicate.
// It handles the nodes of one half of the identifier space (literals or not).
func (l *loader) buildNodes(ctx contextLike, sw *badger.StreamWriter, half int, relOf []graph.Rel, typeIdx, subIdx int, st *relStats, info *kbInfo, spool *pairSpool) (err error) {
	nw := &nodeWriter{w: l.newKVWriter(sw), stream: streamNode, moreStream: streamNodeMore, relOf: relOf, typeIdx: typeIdx, subIdx: subIdx,
		st: st, info: info, spool: spool, bits: info.NodeBits, bucket: -1}
	defer func() {
		if cerr := nw.w.close(); err == nil {
			err = cerr
		}
	}()
	if half == halfLit {
		// Literals have no outgoing facts; an rdf:type fact to a literal (which is
		// not a class) stays an edge, so that only the other half writes 'I' and 'E'.
		nw.stream, nw.moreStream, nw.typeIdx = streamNodeLit, streamNodeLitMore, -1
	}
	m, err := l.openNodeMerge(half)
	if err != nil {
		return err
	}
	defer m.close()
	for count := 1; ; count++ {
		if count&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ok, err := m.next()
		if err != nil || !ok {
			if err == nil {
				err = nw.flushEntities(true)
			}
			if err == nil {
				err = nw.flushBucket()
			}
			return err
		}
		if err := nw.write(&m.cur); err != nil {
			return err
		}
	}
}

// edgePair is one fact seen from a node: the predicate index and the other node.
type edgePair struct{ p, n uint64 }

// nodeFacts is what the merge yields for one node: its term encoding and its distinct
// facts as subject (out) and as object (in), sorted by predicate then node.
type nodeFacts struct {
	id      uint64
	term    []byte
	out, in []edgePair
}

// nodeMerge merges the SPO and OPS runs and the dictionary run of one half of the
// identifier space into nodeFacts, node by node in identifier order.
type nodeMerge struct {
	spo, ops   *wordMerger[rec3]
	terms      *varMerger
	sp, op     rec3
	t          varItem
	spOK, opOK bool
	tOK        bool
	cur        nodeFacts
}

func (l *loader) openNodeMerge(half int) (*nodeMerge, error) {
	m := &nodeMerge{}
	var err error
	if m.spo, err = l.triples.merge(0, half, l.readBlock); err != nil {
		return nil, err
	}
	if m.ops, err = l.triples.merge(1, half, l.readBlock); err != nil {
		_ = m.spo.close()
		return nil, err
	}
	if m.terms, err = l.terms.merge(half, l.readBlock); err != nil {
		_ = m.spo.close()
		_ = m.ops.close()
		return nil, err
	}
	if m.sp, m.spOK, err = m.spo.next(); err == nil {
		if m.op, m.opOK, err = m.ops.next(); err == nil {
			m.t, m.tOK, err = m.terms.next()
		}
	}
	if err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

func (m *nodeMerge) close() {
	_ = m.spo.close()
	_ = m.ops.close()
	_ = m.terms.close()
}

// next fills m.cur with the next node; it returns false after the last one.
func (m *nodeMerge) next() (bool, error) {
	if !m.spOK && !m.opOK && !m.tOK {
		return false, nil
	}
	id := uint64(1<<64 - 1)
	if m.spOK {
		id = min(id, m.sp[0])
	}
	if m.opOK {
		id = min(id, m.op[0])
	}
	if m.tOK {
		id = min(id, m.t.k1)
	}
	c := &m.cur
	c.id, c.term, c.out, c.in = id, c.term[:0], c.out[:0], c.in[:0]
	var err error
	for m.tOK && m.t.k1 == id {
		if len(c.term) == 0 {
			c.term = append(c.term, m.t.data...)
		} else if !bytes.Equal(c.term, m.t.data) {
			a, _, _ := graph.DecodeTermKey(c.term)
			b, _, _ := graph.DecodeTermKey(m.t.data)
			return false, fmt.Errorf("%w: %s and %s have the same identifier %016x; load again with another ID salt (--id-salt)", ErrIDCollision, a, b, id)
		}
		if m.t, m.tOK, err = m.terms.next(); err != nil {
			return false, err
		}
	}
	for m.spOK && m.sp[0] == id {
		if n := len(c.out); n == 0 || c.out[n-1] != (edgePair{m.sp[1], m.sp[2]}) {
			c.out = append(c.out, edgePair{m.sp[1], m.sp[2]})
		}
		if m.sp, m.spOK, err = m.spo.next(); err != nil {
			return false, err
		}
	}
	for m.opOK && m.op[0] == id {
		if n := len(c.in); n == 0 || c.in[n-1] != (edgePair{m.op[1], m.op[2]}) {
			c.in = append(c.in, edgePair{m.op[1], m.op[2]})
		}
		if m.op, m.opOK, err = m.ops.next(); err != nil {
			return false, err
		}
	}
	if len(c.term) == 0 {
		return false, fmt.Errorf("ontology: internal error: node %016x has facts but no term", id)
	}
	return true, nil
}

// nodeWriter turns nodeFacts into node records, instance chunks and entity chunks.
type nodeWriter struct {
	w                 *kvWriter
	stream            uint32 // of the 'N' buckets
	moreStream        uint32 // of the further record parts ('X')
	bits              uint   // node bucket bits
	bucket            int64  // the bucket being filled (-1: none yet)
	bucketVal         []byte
	ends              []int // the ends of the record's parts in val
	relOf             []graph.Rel
	typeIdx, subIdx   int
	st                *relStats
	info              *kbInfo
	flat              []uint64 // the ids of all edge groups of the node
	groups            []edgeGroup
	key, val          []byte
	entities          []uint64
	eChunk            uint32
	isEntity, isClass bool
	spool             *pairSpool // receives the facts of the node as subject
}

// edgeGroup is the edges of one relation of a node: flat[start:end].
type edgeGroup struct {
	rel        graph.Rel
	start, end int
}

// write writes one node.
func (nw *nodeWriter) write(n *nodeFacts) error {
	nw.info.Nodes++
	if isLiteralID(graph.ID(n.id)) {
		nw.info.Literals++
	}
	nw.flat, nw.groups = nw.flat[:0], nw.groups[:0]
	nw.isEntity, nw.isClass = false, false
	nw.outGroups(n.out)
	if nw.spool != nil {
		for _, e := range n.out {
			if err := nw.spool.add(int(e.p), n.id, e.n); err != nil {
				return err
			}
		}
	}
	if err := nw.inGroups(n.id, n.in); err != nil {
		return err
	}
	slices.SortFunc(nw.groups, func(a, b edgeGroup) int { return int(a.rel) - int(b.rel) })
	if nw.isEntity {
		nw.info.Entities++
		nw.entities = append(nw.entities, n.id)
		if err := nw.flushEntities(false); err != nil {
			return err
		}
	}
	if nw.isClass {
		nw.info.Classes++
	}
	return nw.writeRecord(n.id, n.term)
}

// outGroups groups the facts of which the node is the subject by predicate and counts
// facts and distinct subjects.
func (nw *nodeWriter) outGroups(out []edgePair) {
	for i := 0; i < len(out); {
		p := out[i].p
		start := len(nw.flat)
		for ; i < len(out) && out[i].p == p; i++ {
			nw.flat = append(nw.flat, out[i].n)
		}
		nw.st.facts[p] += int64(len(nw.flat) - start)
		nw.st.subjects[p]++
		nw.groups = append(nw.groups, edgeGroup{nw.relOf[p], start, len(nw.flat)})
		if int(p) != nw.typeIdx && int(p) != nw.subIdx {
			nw.isEntity = true
		}
		if int(p) == nw.subIdx {
			nw.isClass = true
		}
	}
}

// inGroups groups the facts of which the node is the object by inverse predicate and
// counts distinct objects; rdf:type facts into a class go to its instance chunks.
func (nw *nodeWriter) inGroups(id uint64, in []edgePair) error {
	for i := 0; i < len(in); {
		p := in[i].p
		start := len(nw.flat)
		for ; i < len(in) && in[i].p == p; i++ {
			nw.flat = append(nw.flat, in[i].n)
		}
		nw.st.objects[p]++
		switch int(p) {
		case nw.typeIdx:
			nw.isClass = true
			if err := nw.writeInstances(id, nw.flat[start:]); err != nil {
				return err
			}
			nw.flat = nw.flat[:start]
			continue
		case nw.subIdx:
			nw.isClass = true
		}
		nw.groups = append(nw.groups, edgeGroup{nw.relOf[p].Inverse(), start, len(nw.flat)})
	}
	return nil
}

// writeInstances writes the instances of a class in chunks of chunkIDs ids.
func (nw *nodeWriter) writeInstances(class uint64, ids []uint64) error {
	for c := 0; len(ids) > 0; c++ {
		n := min(len(ids), chunkIDs)
		nw.key = idChunkKey(nw.key, pfxInstance, graph.ID(class), uint32(c))
		nw.val = appendIDs(nw.val[:0], ids[:n])
		if err := nw.w.put(streamInstance, nw.key, nw.val); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// flushEntities writes a chunk of entities when it is full (or, with force, when it
// holds any).
func (nw *nodeWriter) flushEntities(force bool) error {
	if len(nw.entities) == 0 || !force && len(nw.entities) < chunkIDs {
		return nil
	}
	nw.key = idChunkKey(nw.key, pfxEntity, 0, nw.eChunk)
	nw.eChunk++
	nw.val = appendIDs(nw.val[:0], nw.entities)
	nw.entities = nw.entities[:0]
	return nw.w.put(streamEntity, nw.key, nw.val)
}

// writeRecord adds the node's entry to its bucket (the term, then the edge groups,
// up to partIDs ids) and writes the further parts of its record, of at most partIDs
// ids each.
func (nw *nodeWriter) writeRecord(id uint64, term []byte) error {
	nw.val = append(nw.val[:0], term...)
	nw.ends = nw.ends[:0]
	inPart := 0
	for _, g := range nw.groups {
		ids := nw.flat[g.start:g.end]
		for len(ids) > 0 {
			if inPart == partIDs {
				nw.ends = append(nw.ends, len(nw.val))
				inPart = 0
			}
			n := min(partIDs-inPart, len(ids))
			nw.val = appendGroup(nw.val, g.rel, ids[:n])
			inPart += n
			ids = ids[n:]
		}
	}
	nw.ends = append(nw.ends, len(nw.val))
	if b := int64(bucketOf(id, nw.bits)); b != nw.bucket {
		if err := nw.flushBucket(); err != nil {
			return err
		}
		nw.bucket = b
	}
	first := 1
	if nw.ends[0] > inlinePart0 {
		first = 0
		nw.bucketVal = appendNodeEntry(nw.bucketVal, id, uint32(len(nw.ends)-1), nil)
	} else {
		nw.bucketVal = appendNodeEntry(nw.bucketVal, id, uint32(len(nw.ends)-1), nw.val[:nw.ends[0]])
	}
	for part := first; part < len(nw.ends); part++ {
		start := 0
		if part > 0 {
			start = nw.ends[part-1]
		}
		if err := nw.w.put(nw.moreStream, nodePartKey(nw.key, graph.ID(id), uint32(part)), nw.val[start:nw.ends[part]]); err != nil {
			return err
		}
	}
	return nil
}

// flushBucket writes the 'N' bucket being filled, if any.
func (nw *nodeWriter) flushBucket() error {
	if len(nw.bucketVal) == 0 {
		return nil
	}
	err := nw.w.put(nw.stream, bucketKey(nw.key, pfxNode, uint32(nw.bucket)), nw.bucketVal)
	nw.bucketVal = nw.bucketVal[:0]
	return err
}

// contextLike is the part of context.Context the builders use.
type contextLike interface{ Err() error }

// buildPairs writes the (subject, object) pairs of each relation in blocks ('P'), one
// stream per relation, from the spool that buildNodes filled.
func (l *loader) buildPairs(ctx contextLike, sw *badger.StreamWriter, relOf []graph.Rel, st *relStats, spool *pairSpool) (err error) {
	w := l.newKVWriter(sw)
	defer func() {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}()
	var key, val []byte
	for p := range relOf {
		if err := ctx.Err(); err != nil {
			return err
		}
		var block uint32
		n := 0
		flush := func() error {
			if n == 0 {
				return nil
			}
			key = relBlockKey(key, relOf[p], block)
			block++
			err := w.put(streamPairs+uint32(p), key, val)
			val, n = val[:0], 0
			return err
		}
		err := spool.each(p, func(words []uint64) error {
			for i := 0; i+1 < len(words); i += 2 {
				val = binary.BigEndian.AppendUint64(val, words[i])
				val = binary.BigEndian.AppendUint64(val, words[i+1])
				if n++; n == blockLen {
					if err := flush(); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil {
			return err
		}
		st.blocks[p] = block
		if block > 0 {
			if err := w.done(streamPairs + uint32(p)); err != nil {
				return err
			}
		}
	}
	return nil
}

// buildLiterals writes the exact literal index ('L'): buckets of normal forms with the
// literal nodes that have them.
func (l *loader) buildLiterals(ctx contextLike, sw *badger.StreamWriter, bits uint) (err error) {
	w := l.newKVWriter(sw)
	defer func() {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}()
	m, err := l.lits.merge(halfAll, l.readBlock)
	if err != nil {
		return err
	}
	defer func() { _ = m.close() }()
	type entry struct {
		norm string
		ids  []uint64
	}
	var (
		key, val []byte
		bucket   = int64(-1)
		hash     uint64
		entries  []entry
	)
	flushHash := func() {
		slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.norm, b.norm) })
		for i, e := range entries {
			if i > 0 && e.norm == entries[i-1].norm {
				continue
			}
			ids := e.ids
			for j := i + 1; j < len(entries) && entries[j].norm == e.norm; j++ {
				ids = append(ids, entries[j].ids...)
			}
			slices.Sort(ids)
			ids = slices.Compact(ids)
			val = binary.BigEndian.AppendUint64(val, hash)
			val = binary.AppendUvarint(val, uint64(len(e.norm)))
			val = append(val, e.norm...)
			val = binary.AppendUvarint(val, uint64(len(ids)))
			val = appendIDs(val, ids)
		}
		entries = entries[:0]
	}
	flushBucket := func() error {
		flushHash()
		if bucket < 0 || len(val) == 0 {
			return nil
		}
		key = bucketKey(key, pfxLiteral, uint32(bucket))
		err := w.put(streamLiteral, key, val)
		val = val[:0]
		return err
	}
	for count := 0; ; count++ {
		if count&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		it, ok, err := m.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if b := int64(bucketOf(it.k1, bits)); b != bucket {
			if err := flushBucket(); err != nil {
				return err
			}
			bucket = b
		} else if it.k1 != hash {
			flushHash()
		}
		hash = it.k1
		if n := len(entries); n > 0 && entries[n-1].norm == string(it.data) {
			if ids := entries[n-1].ids; ids[len(ids)-1] != it.k2 {
				entries[n-1].ids = append(ids, it.k2)
			}
			continue
		}
		entries = append(entries, entry{norm: string(it.data), ids: []uint64{it.k2}})
	}
	return flushBucket()
}

// buildBands writes the MinHash band buckets ('K').
func (l *loader) buildBands(ctx contextLike, sw *badger.StreamWriter, bits uint) (err error) {
	w := l.newKVWriter(sw)
	defer func() {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}()
	m, err := l.bands.merge(0, halfAll, l.readBlock)
	if err != nil {
		return err
	}
	defer func() { _ = m.close() }()
	var key, val []byte
	bucket := int64(-1)
	var group []uint64 // the norm hashes of the current band key
	var band uint64
	flushGroup := func() error {
		if len(group) == 0 || len(group) > graph.MaxBandPostings {
			group = group[:0]
			return nil
		}
		if b := int64(bucketOf(band, bits)); b != bucket {
			if len(val) > 0 {
				if err := w.put(streamBand, bucketKey(key, pfxBand, uint32(bucket)), val); err != nil {
					return err
				}
			}
			bucket, val = b, val[:0]
		}
		for _, h := range group {
			val = binary.BigEndian.AppendUint64(val, band)
			val = binary.BigEndian.AppendUint64(val, h)
		}
		group = group[:0]
		return nil
	}
	for count := 0; ; count++ {
		if count&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r, ok, err := m.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if len(group) > 0 && r[0] == band {
			if group[len(group)-1] != r[1] {
				group = append(group, r[1])
			}
			continue
		}
		if err := flushGroup(); err != nil {
			return err
		}
		band = r[0]
		group = append(group, r[1])
	}
	if err := flushGroup(); err != nil {
		return err
	}
	if len(val) > 0 {
		return w.put(streamBand, bucketKey(key, pfxBand, uint32(bucket)), val)
	}
	return nil
}

// buildDates writes the date index ('A'): per year pattern, chunks of (literal, date).
func (l *loader) buildDates(ctx contextLike, sw *badger.StreamWriter) (err error) {
	w := l.newKVWriter(sw)
	defer func() {
		if cerr := w.close(); err == nil {
			err = cerr
		}
	}()
	m, err := l.dates.merge(0, halfAll, l.readBlock)
	if err != nil {
		return err
	}
	defer func() { _ = m.close() }()
	var key, val []byte
	var year [5]byte
	var chunk uint32
	n := 0
	var last rec2
	flush := func() error {
		if n == 0 {
			return nil
		}
		err := w.put(streamDate, dateKey(key, year, chunk), val)
		chunk++
		val, n = val[:0], 0
		return err
	}
	for count := 0; ; count++ {
		if count&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		r, ok, err := m.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if count > 0 && r == last {
			continue
		}
		last = r
		if y := yearKey(unpackDate(r[0])); y != year || count == 0 {
			if err := flush(); err != nil {
				return err
			}
			year, chunk = y, 0
		}
		val = binary.BigEndian.AppendUint64(val, r[1])
		val = binary.BigEndian.AppendUint64(val, r[0])
		if n++; n == chunkIDs {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// badgerLogger sends Badger's messages to slog at debug level (warnings and errors at
// their own level).
type badgerLogger struct{ l *slog.Logger }

func (b badgerLogger) Errorf(f string, a ...any) {
	b.l.Error("badger: " + strings.TrimSpace(fmt.Sprintf(f, a...)))
}
func (b badgerLogger) Warningf(f string, a ...any) {
	b.l.Warn("badger: " + strings.TrimSpace(fmt.Sprintf(f, a...)))
}
func (b badgerLogger) Infof(f string, a ...any) {
	b.l.Debug("badger: " + strings.TrimSpace(fmt.Sprintf(f, a...)))
}
func (b badgerLogger) Debugf(f string, a ...any) {
	b.l.Debug("badger: " + strings.TrimSpace(fmt.Sprintf(f, a...)))
}
