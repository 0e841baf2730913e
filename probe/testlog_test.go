package probe

import (
	"log/slog"
	"os"
)

// testLogger logs to stderr at debug level (go test -v).
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}
