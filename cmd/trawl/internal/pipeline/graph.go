package pipeline

import (
	"context"
	"path/filepath"

	"github.com/trawl-dev/trawl/internal/rundir"
	"github.com/trawl-dev/trawl/schema"
)

// graphStage writes the labeled graph.
func (p *Pipeline) graphStage() stage {
	return stage{
		name:    "graph",
		inputs:  []string{rundir.SchemaFile, rundir.RecordsFile},
		outputs: []string{rundir.GraphFile},
		options: graphSettings(p.o.Graph),
		run: func(ctx context.Context) error {
			l, err := p.labeled(ctx)
			if err != nil {
				return err
			}
			return l.WriteFile(filepath.Join(p.o.Dir, rundir.GraphFile))
		},
	}
}

// graphSettings are the graph options that change graph.nt.
func graphSettings(o schema.LabeledOptions) any {
	type settings struct{ Base, SourceID string }
	d := schema.DefaultLabeledOptions()
	if o.Provenance == d.Provenance && o.RecordProvenance == d.RecordProvenance {
		return settings{o.Base, o.SourceID}
	}
	return struct {
		settings
		Provenance, RecordProvenance bool
	}{settings{o.Base, o.SourceID}, o.Provenance, o.RecordProvenance}
}

// Graph runs the graph stage alone ('trawl graph RUN_DIR') and returns the graph.
func (p *Pipeline) Graph(ctx context.Context) (*schema.Labeled, error) {
	if err := p.RunStage(ctx, "graph"); err != nil {
		return nil, err
	}
	return p.labeled(ctx)
}

// labeled returns the labeled graph of the schema and the records, built once.
func (p *Pipeline) labeled(ctx context.Context) (*schema.Labeled, error) {
	if p.st.labeled != nil {
		return p.st.labeled, nil
	}
	s, err := p.st.Schema()
	if err != nil {
		return nil, err
	}
	recs, err := p.st.Records()
	if err != nil {
		return nil, err
	}
	gopts := p.o.Graph
	gopts.Logger = p.log
	l, err := schema.BuildLabeled(ctx, s, recs, gopts)
	if err != nil {
		return nil, err
	}
	p.st.labeled = l
	return l, nil
}
