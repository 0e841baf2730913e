package probe

import (
	"context"
	"fmt"
	"sync"
)

// pool hands out up to n tabs of one browser, one goroutine per tab at a time. A tab
// that broke (a stuck page) is closed on release and replaced by a fresh one on a later
// acquire.
type pool struct {
	b    *Browser
	pol  *policy
	sem  chan struct{} // one token per tab that may exist
	mu   sync.Mutex
	idle []*tab
	all  map[*tab]bool
}

func newPool(b *Browser, pol *policy, n int) *pool {
	return &pool{b: b, pol: pol, sem: make(chan struct{}, n), all: map[*tab]bool{}}
}

// acquire returns an idle tab or opens one, waiting while all n tabs are in use.
func (p *pool) acquire(ctx context.Context) (*tab, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		t := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return t, nil
	}
	p.mu.Unlock()
	t, err := p.b.newTab(p.pol)
	if err != nil {
		<-p.sem
		return nil, err
	}
	p.mu.Lock()
	p.all[t] = true
	p.mu.Unlock()
	return t, nil
}

// release gives a tab back; a broken tab is closed.
func (p *pool) release(t *tab) {
	t.mu.Lock()
	broken := t.broken
	t.mu.Unlock()
	p.mu.Lock()
	if broken {
		delete(p.all, t)
		p.mu.Unlock()
		t.close()
	} else {
		p.idle = append(p.idle, t)
		p.mu.Unlock()
	}
	<-p.sem
}

// close closes every tab of the pool.
func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for t := range p.all {
		t.close()
	}
	p.all = map[*tab]bool{}
	p.idle = nil
}

// size returns the number of open tabs.
func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all)
}

func (p *pool) String() string { return fmt.Sprintf("pool(%d/%d tabs)", p.size(), cap(p.sem)) }

// isBroken reports whether the tab was declared broken (a stuck page).
func (t *tab) isBroken() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.broken
}
