package pipeline

import (
	"context"
	"errors"

	"github.com/trawl-dev/trawl/cmd/trawl/internal/report"
	"github.com/trawl-dev/trawl/internal/rundir"
)

// reportStage writes report.html.
func (p *Pipeline) reportStage() stage {
	return stage{
		name: "report",
		inputs: []string{rundir.FormFile, rundir.ProbesFile, rundir.RecordsFile, rundir.SchemaFile, rundir.AlignmentTSV,
			rundir.UnderstandingFile, rundir.EnrichmentFile, rundir.RoundsFile},
		outputs: []string{rundir.ReportFile},
		run: func(ctx context.Context) error {
			kb, err := p.reference(ctx)
			if err != nil {
				kb = nil // the report names KB entities by IRI then
			}
			_, err = report.Write(ctx, p.o.Dir, report.Options{KB: kb, Logger: p.log})
			if errors.Is(err, report.ErrIncomplete) {
				p.log.Warn("the report is incomplete", "err", err)
				return nil
			}
			return err
		},
	}
}
