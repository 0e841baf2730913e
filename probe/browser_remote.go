package probe

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Connect attaches to a Chromium that runs already (started elsewhere with
// --remote-debugging-port, e.g. one machine of a browser pool) through the DevTools
// protocol. endpoint is ws://host:port or http://host:port (the browser's websocket
// address is looked up at /json/version), or the full ws://…/devtools/browser/… URL.
// The Browser opens its own tabs in it; Close closes those tabs and the connection,
// not the remote browser. ctx bounds the connection's life, as for Start.
func Connect(ctx context.Context, endpoint string, opts Options) (*Browser, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(endpoint, "ws://") && !strings.HasPrefix(endpoint, "wss://") && !strings.HasPrefix(endpoint, "http://") {
		return nil, fmt.Errorf("probe: browser endpoint %q: want ws://host:port or http://host:port", endpoint)
	}
	log := opts.logger()
	var ropts []remote.Option
	if strings.Contains(endpoint, "/devtools/browser/") {
		ropts = append(ropts, remote.NoModifyURL)
	}
	allocCtx, allocCancel := remote.NewAllocator(context.WithoutCancel(ctx), endpoint, ropts...)
	b, err := attach(ctx, allocCtx, allocCancel, opts, log, "", "connect to the browser at "+endpoint)
	if err != nil {
		return nil, err
	}
	log.Info("connected to a browser", "endpoint", endpoint, "user_agent", b.ua)
	return b, nil
}

// Lost reports whether the connection to the browser dropped (the process died, or
// the network to a remote browser failed) although Close was not called. A lost
// Browser is of no further use: close it and start or connect another.
func (b *Browser) Lost() bool {
	if b.isClosed() {
		return false
	}
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return b.ctx.Err() != nil
	}
	select {
	case <-c.Browser.LostConnection:
		return true
	default:
		return b.ctx.Err() != nil
	}
}
