package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/nats-io/nats.go/jetstream"
)

// leaseValue is the value of an origin lease key.
type leaseValue struct {
	// Holder names the worker and job holding the lease; "" when it is free.
	Holder string `json:"holder,omitempty"`
	// Released is when the last holder let go (its last request to the origin is
	// before it).
	Released time.Time `json:"released,omitzero"`
}

// lease is one held slot of an origin.
type lease struct {
	q   *Queue
	key string
	rev uint64
	val leaseValue
}

// originToken turns an origin into a KV key token: readable, and unique by a hash.
func originToken(origin string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(origin) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 60 {
		s = s[:60]
	}
	return fmt.Sprintf("%s-%08x", s, uint32(xxhash.Sum64String(origin)))
}

// acquireLease takes a free (or expired) slot of the origin for holder. It returns
// nil when all OriginLimit slots are held, and the time the caller must wait before
// its first request (the delay after the slot's last release).
func (q *Queue) acquireLease(ctx context.Context, origin, holder string, delay time.Duration) (*lease, time.Duration, error) {
	tok := originToken(origin)
	for slot := range q.o.OriginLimit {
		key := fmt.Sprintf("%s.%d", tok, slot)
		want := leaseValue{Holder: holder}
		b, _ := json.Marshal(want)
		e, err := q.leases.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			rev, err := q.leases.Create(ctx, key, b)
			if errors.Is(err, jetstream.ErrKeyExists) {
				continue // taken just now
			}
			if err != nil {
				return nil, 0, fmt.Errorf("queue: lease %s: %w", key, err)
			}
			return &lease{q: q, key: key, rev: rev, val: want}, 0, nil
		case err != nil:
			return nil, 0, fmt.Errorf("queue: lease %s: %w", key, err)
		}
		var cur leaseValue
		if err := json.Unmarshal(e.Value(), &cur); err != nil {
			cur = leaseValue{} // a damaged value is a free slot
		}
		// A holder renews its lease every AckWait/4; one not renewed for AckWait
		// belongs to a worker that died.
		expired := time.Since(e.Created()) > q.o.AckWait
		if cur.Holder != "" && !expired {
			continue
		}
		if cur.Holder != "" {
			q.log.Warn("queue: taking over an expired origin lease", "origin", origin, "holder", cur.Holder, "renewed", e.Created())
			cur.Released = e.Created()
		}
		rev, err := q.leases.Update(ctx, key, b, e.Revision())
		if errors.Is(err, jetstream.ErrKeyExists) {
			continue // another worker was faster
		}
		if err != nil {
			return nil, 0, fmt.Errorf("queue: lease %s: %w", key, err)
		}
		wait := time.Duration(0)
		if !cur.Released.IsZero() {
			wait = time.Until(cur.Released.Add(delay))
		}
		return &lease{q: q, key: key, rev: rev, val: want}, max(wait, 0), nil
	}
	return nil, 0, nil
}

// renew writes the lease again, which restarts its expiry.
func (l *lease) renew(ctx context.Context) error {
	b, _ := json.Marshal(l.val)
	rev, err := l.q.leases.Update(ctx, l.key, b, l.rev)
	if err != nil {
		return fmt.Errorf("queue: renew the lease %s: %w", l.key, err)
	}
	l.rev = rev
	return nil
}

// release frees the slot and stamps the time, from which the next holder waits the
// origin's delay.
func (l *lease) release(ctx context.Context) error {
	b, _ := json.Marshal(leaseValue{Released: time.Now().UTC()})
	if _, err := l.q.leases.Update(ctx, l.key, b, l.rev); err != nil {
		return fmt.Errorf("queue: release the lease %s: %w", l.key, err)
	}
	return nil
}
