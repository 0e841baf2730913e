// Command trawl understands deep-web search forms without domain knowledge and turns the
// records they hide into linked data aligned with YAGO.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand().ExecuteContext(ctx)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}
