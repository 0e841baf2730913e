package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// globalOptions are the flags every command shares.
type globalOptions struct {
	Verbose int  // -v: info, -vv: debug
	Quiet   bool // only errors
	stderr  io.Writer
}

// logger returns the slog logger for the chosen verbosity, writing to stderr.
func (g *globalOptions) logger() *slog.Logger {
	level := slog.LevelWarn
	switch {
	case g.Quiet:
		level = slog.LevelError
	case g.Verbose == 1:
		level = slog.LevelInfo
	case g.Verbose >= 2:
		level = slog.LevelDebug
	}
	w := g.stderr
	if w == nil {
		w = os.Stderr
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

const rootLong = `trawl understands deep-web search forms without domain knowledge and turns the
records they hide into linked data: it probes a search form in headless Chromium,
isolates the result records with FOREST, aligns their attributes into an output schema
mapped to the form's inputs, writes them as RDF, and aligns that graph with YAGO (PARIS).

Data goes to files or stdout; progress and logs go to stderr.`

func newRootCommand() *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:           "trawl",
		Short:         "Turn deep-web search forms into linked data aligned with YAGO",
		Long:          rootLong + "\n\n" + exitCodesHelp(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().CountVarP(&g.Verbose, "verbose", "v", "log more (-v info, -vv debug)")
	root.PersistentFlags().BoolVarP(&g.Quiet, "quiet", "q", false, "log only errors")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v", err) })

	root.AddGroup(
		&cobra.Group{ID: "pipeline", Title: "Pipeline:"},
		&cobra.Group{ID: "stages", Title: "One stage at a time:"},
		&cobra.Group{ID: "kb", Title: "Knowledge bases:"},
	)
	add := func(group string, cmds ...*cobra.Command) {
		for _, c := range cmds {
			c.GroupID = group
			if c.Args == nil {
				c.Args = cobra.ArbitraryArgs
			}
			wrapArgs(c)
			root.AddCommand(c)
		}
	}
	add("pipeline", newDemoCommand(g), newRunCommand(g), newBatchCommand(g), newWorkerCommand(g))
	add("stages", newProbeCommand(g), newFormsCommand(g), newExtractCommand(g),
		newSchemaCommand(g), newGraphCommand(g), newAlignCommand(g), newReportCommand(g), newArticlesCommand(g))
	add("kb", newKBCommand(g))
	return root
}

// wrapArgs turns cobra's argument errors into usage errors, for the exit code.
func wrapArgs(c *cobra.Command) {
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError("%s: %v (see 'trawl %s --help')", cmd.CommandPath(), err, strings.TrimPrefix(cmd.CommandPath(), "trawl "))
		}
		return nil
	}
	for _, sub := range c.Commands() {
		if sub.Args == nil {
			sub.Args = cobra.ArbitraryArgs
		}
		wrapArgs(sub)
	}
}

// forCmd returns the options with stderr set to the command's.
func (g *globalOptions) forCmd(cmd *cobra.Command) globalOptions {
	gg := *g
	if gg.stderr == nil {
		gg.stderr = cmd.ErrOrStderr()
	}
	return gg
}

// writeJSON writes v to w as indented JSON without HTML escaping (URLs stay readable).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// example formats an Example block.
func example(lines ...string) string {
	return "  " + strings.Join(lines, "\n  ")
}
