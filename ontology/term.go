package ontology

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
	"github.com/trawl-dev/trawl/graph"
)

// Node identifiers are 63-bit hashes of the term's binary encoding, with the top bit set
// for literals. A hash needs no dictionary lookup while loading (so parsing runs in
// parallel and the dictionary never has to fit in memory); the loader detects the rare
// collision by comparing the stored terms, and a salt (LoadOptions.IDSalt) changes
// every hash when one happens.
const (
	literalBit = uint64(1) << 63
	hashMask   = literalBit - 1
)

// isLiteralID reports whether n is the identifier of a literal.
func isLiteralID(n graph.ID) bool { return uint64(n)&literalBit != 0 }

// appendTerm appends the binary encoding of t: a kind byte, the value, and for literals
// the datatype, language and direction, each as uvarint length + bytes. The encoding is
// injective (graph.Term is canonical), so it serves as dictionary entry and hash input.
func appendTerm(b []byte, t graph.Term) []byte {
	b = append(b, byte(t.Kind))
	b = appendString(b, t.Value)
	if t.Kind == graph.KindLiteral {
		b = appendString(b, t.Datatype)
		b = appendString(b, t.Lang)
		b = appendString(b, t.Dir)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errBadTerm = errors.New("ontology: corrupt term encoding")

// decodeTerm decodes a term encoding at the start of b and returns the rest.
func decodeTerm(b []byte) (graph.Term, []byte, error) {
	if len(b) == 0 {
		return graph.Term{}, nil, errBadTerm
	}
	t := graph.Term{Kind: graph.Kind(b[0])}
	if t.Kind < graph.KindIRI || t.Kind > graph.KindTriple {
		return graph.Term{}, nil, fmt.Errorf("%w: kind %d", errBadTerm, b[0])
	}
	b = b[1:]
	var err error
	if t.Value, b, err = readString(b); err != nil {
		return graph.Term{}, nil, err
	}
	if t.Kind == graph.KindLiteral {
		if t.Datatype, b, err = readString(b); err != nil {
			return graph.Term{}, nil, err
		}
		if t.Lang, b, err = readString(b); err != nil {
			return graph.Term{}, nil, err
		}
		if t.Dir, b, err = readString(b); err != nil {
			return graph.Term{}, nil, err
		}
	}
	return t, b, nil
}

// skipTerm returns b after the term encoding at its start.
func skipTerm(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, errBadTerm
	}
	n := 1
	if graph.Kind(b[0]) == graph.KindLiteral {
		n = 4
	}
	b = b[1:]
	for range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, errBadTerm
		}
		b = b[k+int(l):]
	}
	return b, nil
}

func readString(b []byte) (string, []byte, error) {
	l, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < l {
		return "", nil, errBadTerm
	}
	return string(b[k : k+int(l)]), b[k+int(l):], nil
}

// hashEncoded returns the node identifier of an encoded term.
func hashEncoded(enc []byte, salt uint64) graph.ID {
	var h uint64
	if salt == 0 {
		h = xxhash.Sum64(enc)
	} else {
		d := xxhash.NewWithSeed(salt)
		_, _ = d.Write(enc)
		h = d.Sum64()
	}
	h &= hashMask
	if h == 0 {
		h = 1 // 0 marks an empty slot in the loader's sets
	}
	if len(enc) > 0 && graph.Kind(enc[0]) == graph.KindLiteral {
		h |= literalBit
	}
	return graph.ID(h)
}

// termID returns the node identifier of t, using buf as scratch space.
func termID(t graph.Term, salt uint64, buf []byte) (graph.ID, []byte) {
	buf = appendTerm(buf[:0], t)
	return hashEncoded(buf, salt), buf
}
