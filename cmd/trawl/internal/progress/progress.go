package progress

import (
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Every is how often the bar is redrawn on a terminal; it must stay under 10 s (the
// promise of the README).
const Every = 5 * time.Second

// Interval is Every, or $TRAWL_PROGRESS_INTERVAL (a Go duration) when it is set and
// positive, for tests.
func Interval() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("TRAWL_PROGRESS_INTERVAL")); err == nil && d > 0 {
		return d
	}
	return Every
}

// IsTerminal reports whether w is a terminal (bars are drawn only there).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// State is what a bar shows at one moment.
type State struct {
	// Key names the bar: a new bar starts when it changes (a new stage).
	Key string
	// Text is the description before the bar: counts, rates, time left.
	Text string
	// Done of Total is the bar's fill; Total 0 means unknown (a spinner).
	Done, Total int64
	// Bytes has the bar show Done and Total as bytes, with their rate and the time
	// left at that rate.
	Bytes bool
}

// Terminal is a writer (stderr on a terminal) with a progress bar on its last row:
// Write clears the bar, writes, and draws the bar again below what it wrote.
type Terminal struct {
	mu    sync.Mutex
	w     io.Writer
	key   string
	total int64
	bytes bool
	bar   *progressbar.ProgressBar
	line  string // the bar as last drawn, "" when none is shown
}

// NewTerminal returns a Terminal that writes to w.
func NewTerminal(w io.Writer) *Terminal { return &Terminal{w: w} }

// Write implements io.Writer: the bar is cleared before p and drawn again after it
// when p ends a line.
func (t *Terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	line := t.line
	t.clearLocked()
	n, err := t.w.Write(p)
	if line != "" && len(p) > 0 && p[len(p)-1] == '\n' {
		t.drawLocked(line)
	}
	return n, err
}

// Show draws s as the bar.
func (t *Terminal) Show(s State) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bar == nil || s.Key != t.key || s.Bytes != t.bytes {
		t.newBarLocked(s)
	} else if s.Total != t.total {
		t.total = s.Total
		t.bar.ChangeMax64(maxOf(s.Total))
	}
	t.bar.Describe(s.Text)
	_ = t.bar.Set64(s.Done)
	t.drawLocked(strings.TrimRight(strings.TrimLeft(t.bar.String(), "\r"), " "))
}

// Clear removes the bar.
func (t *Terminal) Clear() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clearLocked()
}

// newBarLocked starts the bar of s: the library renders it into a string, and the
// Terminal puts that on the screen, so that the bar never mixes with other writes.
func (t *Terminal) newBarLocked(s State) {
	opts := []progressbar.Option{progressbar.OptionSetWriter(io.Discard), progressbar.OptionSetWidth(20),
		progressbar.OptionSetSpinnerChangeInterval(0), progressbar.OptionSetPredictTime(s.Bytes),
		progressbar.OptionSetElapsedTime(false)}
	if s.Bytes {
		opts = append(opts, progressbar.OptionShowBytes(true), progressbar.OptionShowCount(),
			progressbar.OptionUseIECUnits(true))
	}
	t.key, t.total, t.bytes = s.Key, s.Total, s.Bytes
	t.bar = progressbar.NewOptions64(maxOf(s.Total), opts...)
}

// maxOf is the library's maximum for a total: -1 when it is unknown.
func maxOf(total int64) int64 {
	if total <= 0 {
		return -1
	}
	return total
}

func (t *Terminal) drawLocked(line string) {
	if f, ok := t.w.(*os.File); ok {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 1 {
			if r := []rune(line); len(r) >= w {
				line = string(r[:w-1])
			}
		}
	}
	_, _ = io.WriteString(t.w, "\r\x1b[K"+line)
	t.line = line
}

func (t *Terminal) clearLocked() {
	if t.line != "" {
		_, _ = io.WriteString(t.w, "\r\x1b[K")
		t.line = ""
	}
}

// Start draws the bar poll returns (when ok) every interval on t, and clears it when
// poll says there is none. The returned function stops the drawing and clears the bar;
// it may be called more than once.
func Start(t *Terminal, every time.Duration, poll func(now time.Time) (State, bool)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				if s, ok := poll(now); ok {
					t.Show(s)
				} else {
					t.Clear()
				}
			}
		}
	})
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			t.Clear()
		})
	}
}
