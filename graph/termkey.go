package graph

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// Term keys: a compact binary encoding of a term, and the 64-bit hash identifier
// derived from it. The Badger store of package ontology stores terms in this encoding
// and names every node by its hash (no dictionary lookup while loading); the in-memory
// graph numbers its nodes in the order of the same hashes, so that whatever orders
// nodes by identifier orders them alike in both KBs.

// LiteralIDBit is set in the hash identifier of every literal, so that whether a node
// is a literal needs no lookup.
const LiteralIDBit = uint64(1) << 63

// AppendTermKey appends the binary encoding of t: a kind byte, the value, and for
// literals the datatype, language and direction, each as uvarint length + bytes. The
// encoding is injective (Term is canonical).
func AppendTermKey(b []byte, t Term) []byte {
	b = append(b, byte(t.Kind))
	b = appendKeyString(b, t.Value)
	if t.Kind == KindLiteral {
		b = appendKeyString(b, t.Datatype)
		b = appendKeyString(b, t.Lang)
		b = appendKeyString(b, t.Dir)
	}
	return b
}

func appendKeyString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// ErrTermKey is returned for a corrupt term encoding.
var ErrTermKey = errors.New("graph: corrupt term encoding")

// DecodeTermKey decodes the term encoding at the start of b and returns the rest.
func DecodeTermKey(b []byte) (Term, []byte, error) {
	if len(b) == 0 {
		return Term{}, nil, ErrTermKey
	}
	t := Term{Kind: Kind(b[0])}
	if t.Kind < KindIRI || t.Kind > KindTriple {
		return Term{}, nil, fmt.Errorf("%w: kind %d", ErrTermKey, b[0])
	}
	b = b[1:]
	var err error
	if t.Value, b, err = readKeyString(b); err != nil {
		return Term{}, nil, err
	}
	if t.Kind == KindLiteral {
		if t.Datatype, b, err = readKeyString(b); err != nil {
			return Term{}, nil, err
		}
		if t.Lang, b, err = readKeyString(b); err != nil {
			return Term{}, nil, err
		}
		if t.Dir, b, err = readKeyString(b); err != nil {
			return Term{}, nil, err
		}
	}
	return t, b, nil
}

// SkipTermKey returns b after the term encoding at its start.
func SkipTermKey(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, ErrTermKey
	}
	n := 1
	if Kind(b[0]) == KindLiteral {
		n = 4
	}
	b = b[1:]
	for range n {
		l, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < l {
			return nil, ErrTermKey
		}
		b = b[k+int(l):]
	}
	return b, nil
}

func readKeyString(b []byte) (string, []byte, error) {
	l, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < l {
		return "", nil, ErrTermKey
	}
	return string(b[k : k+int(l)]), b[k+int(l):], nil
}

// HashTermKey returns the hash identifier of an encoded term: the 64-bit xxhash of the
// encoding (seeded with salt when it is not 0) masked to 63 bits, never 0, with
// LiteralIDBit set for literals.
func HashTermKey(key []byte, salt uint64) ID {
	var h uint64
	if salt == 0 {
		h = xxhash.Sum64(key)
	} else {
		d := xxhash.NewWithSeed(salt)
		_, _ = d.Write(key)
		h = d.Sum64()
	}
	h &^= LiteralIDBit
	if h == 0 {
		h = 1 // 0 is no node
	}
	if len(key) > 0 && Kind(key[0]) == KindLiteral {
		h |= LiteralIDBit
	}
	return ID(h)
}

// TermHashID returns the hash identifier of t (HashTermKey of its encoding), using buf
// as scratch space.
func TermHashID(t Term, salt uint64, buf []byte) (ID, []byte) {
	buf = AppendTermKey(buf[:0], t)
	return HashTermKey(buf, salt), buf
}
