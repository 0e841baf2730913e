package ontology

import (
	"encoding/binary"
	"fmt"

	"github.com/trawl-dev/trawl/graph"
)

// LayoutVersion is the version of the key layout below. Open refuses a KB written with
// another version.
const LayoutVersion = 3

// Key layout (one Badger stream per family; all prefixes are printable and above '!',
// so no key starts with "!badger!"). Integers are big-endian, so keys sort numerically.
//
//	'M' name                    → metadata: "layout" (uint32), "info" (JSON), "complete"
//	'R' rel(4)                  → relation: predicate id(8), facts(8), subjects(8),
//	                              objects(8), pair blocks(4), IRI
//	'N' bucket(4)               → node bucket: the nodes whose id starts with the
//	                              bucket's NodeBits bits, in id order, as entries (id(8),
//	                              uvarint more parts, uvarint len, part 0 of the record;
//	                              len 0 when part 0 is longer than inlinePart0: it is
//	                              then under 'X' id part 0)
//	'X' id(8) part(4)           → parts 1 and up of a node record with more than partIDs
//	                              edges (and a long part 0)
//	                              A record part: part 0 starts with the term; then edge
//	                              groups: uvarint rel, uvarint n, n node ids (8 each);
//	                              rdf:type edges into a class are not here but in 'I'
//	'I' class(8) chunk(4)       → instances of a class, sorted ids
//	'E' chunk(4)                → entities (subjects of a non-taxonomy fact), sorted ids
//	'P' rel(4) block(4)         → the (subject, object) pairs of a relation, sorted
//	'L' bucket(4)               → exact literal index: entries (normal form hash(8),
//	                              uvarint len + normal form, uvarint n, n literal ids)
//	'K' bucket(4)               → MinHash LSH bands: entries (band key(8), norm hash(8))
//	'A' sign year(5) chunk(4)   → date literals by year pattern: entries (id(8), date(8))
//
// A node's edges, the instances of a class, the pairs of a relation and the bucket
// entries are packed into values, and nodes are grouped into buckets of about
// nodeBucketNodes, so that the number of keys (the cost of a Badger bulk load: it
// decodes, copies and indexes every key) is a fraction of the number of nodes. Layout
// 2 had one key per node (2.78M keys of the 3.48M of a 5M-triple load).
const (
	pfxMeta     = 'M'
	pfxRelation = 'R'
	pfxNode     = 'N'
	pfxNodeMore = 'X'
	pfxInstance = 'I'
	pfxEntity   = 'E'
	pfxPairs    = 'P'
	pfxLiteral  = 'L'
	pfxBand     = 'K'
	pfxDate     = 'A'
)

// Sizes of the packed values.
const (
	partIDs  = 512  // node ids per node record part
	chunkIDs = 1024 // ids per instance or entity chunk
	blockLen = 512  // pairs per relation block
)

// Stream ids of the StreamWriter (one per key family; relations get one each).
const (
	streamNode uint32 = iota + 1
	streamInstance
	streamEntity
	streamLiteral
	streamBand
	streamDate
	streamRelation
	streamMeta
	streamNodeLit
	streamNodeMore
	streamNodeLitMore
	streamPairs // + predicate index
)

func metaKey(name string) []byte { return append([]byte{pfxMeta}, name...) }

// nodeBucketNodes is the number of nodes per 'N' bucket the bucket bits aim at.
const nodeBucketNodes = 8

// inlinePart0 is the longest part 0 of a node record kept in its bucket; a longer
// one (a long literal: terms go up to maxTermBytes) goes under 'X', so that a bucket
// stays well below Badger's 1 MiB inline value limit.
const inlinePart0 = 16 << 10

// nodePartKey is the key of part (≥ 1) of node id's record.
func nodePartKey(b []byte, id graph.ID, part uint32) []byte {
	b = append(b[:0], pfxNodeMore)
	b = binary.BigEndian.AppendUint64(b, uint64(id))
	return binary.BigEndian.AppendUint32(b, part)
}

func nodePartPrefix(id graph.ID) []byte {
	return binary.BigEndian.AppendUint64([]byte{pfxNodeMore}, uint64(id))
}

// appendNodeEntry appends a node's entry to an 'N' bucket value.
func appendNodeEntry(b []byte, id uint64, more uint32, part0 []byte) []byte {
	b = binary.BigEndian.AppendUint64(b, id)
	b = binary.AppendUvarint(b, uint64(more))
	b = binary.AppendUvarint(b, uint64(len(part0)))
	return append(b, part0...)
}

// findNodeEntry returns part 0 of node id's record and its number of further parts
// from an 'N' bucket value; ok is false if the bucket has no such node.
func findNodeEntry(v []byte, id uint64) (part0 []byte, more uint64, ok bool, err error) {
	for len(v) > 0 {
		if len(v) < 8 {
			return nil, 0, false, errCorrupt("node bucket")
		}
		eid := binary.BigEndian.Uint64(v)
		v = v[8:]
		m, k := binary.Uvarint(v)
		if k <= 0 {
			return nil, 0, false, errCorrupt("node bucket")
		}
		v = v[k:]
		n, k := binary.Uvarint(v)
		if k <= 0 || uint64(len(v)-k) < n {
			return nil, 0, false, errCorrupt("node bucket")
		}
		v = v[k:]
		switch {
		case eid == id:
			return v[:n], m, true, nil
		case eid > id:
			return nil, 0, false, nil
		}
		v = v[n:]
	}
	return nil, 0, false, nil
}

func idChunkKey(b []byte, pfx byte, id graph.ID, chunk uint32) []byte {
	b = append(b[:0], pfx)
	if pfx == pfxInstance {
		b = binary.BigEndian.AppendUint64(b, uint64(id))
	}
	return binary.BigEndian.AppendUint32(b, chunk)
}

func relKey(b []byte, pfx byte, rel graph.Rel) []byte {
	b = append(b[:0], pfx)
	return binary.BigEndian.AppendUint32(b, uint32(rel.Forward()))
}

func relBlockKey(b []byte, rel graph.Rel, block uint32) []byte {
	b = relKey(b, pfxPairs, rel)
	return binary.BigEndian.AppendUint32(b, block)
}

func bucketKey(b []byte, pfx byte, bucket uint32) []byte {
	b = append(b[:0], pfx)
	return binary.BigEndian.AppendUint32(b, bucket)
}

func dateKey(b []byte, year [5]byte, chunk uint32) []byte {
	b = append(b[:0], pfxDate)
	b = append(b, year[:]...)
	return binary.BigEndian.AppendUint32(b, chunk)
}

// appendGroup appends an edge group to a node record.
func appendGroup(b []byte, rel graph.Rel, ids []uint64) []byte {
	b = binary.AppendUvarint(b, uint64(rel))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binary.BigEndian.AppendUint64(b, id)
	}
	return b
}

// eachGroup decodes the edge groups of a record part (after the term, for part 0).
func eachGroup(b []byte, fn func(rel graph.Rel, ids []byte) bool) error {
	for len(b) > 0 {
		rel, k := binary.Uvarint(b)
		if k <= 0 {
			return errCorrupt("node record")
		}
		b = b[k:]
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < 8*n {
			return errCorrupt("node record")
		}
		b = b[k:]
		if !fn(graph.Rel(rel), b[:8*n]) {
			return nil
		}
		b = b[8*n:]
	}
	return nil
}

func errCorrupt(what string) error {
	return fmt.Errorf("ontology: corrupt %s (the KB may be damaged; load it again)", what)
}

func appendIDs(b []byte, ids []uint64) []byte {
	for _, id := range ids {
		b = binary.BigEndian.AppendUint64(b, id)
	}
	return b
}
