package schema

import (
	"fmt"
	"log/slog"
)

// Options configures Build and Map. Start from DefaultOptions and override fields.
type Options struct {
	// MinRecords is the least number of records a feature needs; fewer is "sparse".
	MinRecords int `json:"min_records"`
	// MinRecordShare is the least share of all records a feature needs (with MinRecords,
	// the larger applies). Optional attributes (a series) stay above it; a stray badge
	// on one record does not.
	MinRecordShare float64 `json:"min_record_share"`
	// MaxDominantShare: a feature whose most frequent value covers more than this share
	// of its records is template text ("In stock", "Add to cart"), not an attribute.
	MaxDominantShare float64 `json:"max_dominant_share"`
	// TypeShare is the share of a feature's values that must parse as a type for the
	// feature to get that type.
	TypeShare float64 `json:"type_share"`
	// SplitComposite enables splitting composite leaves ("Title by Author") on recurring
	// template words, bracket groups and dates.
	SplitComposite bool `json:"split_composite"`
	// MinSeparatorSupport is the least share of a feature's values that must contain a
	// template word for it to split the feature.
	MinSeparatorSupport float64 `json:"min_separator_support"`
	// MinAtomSupport is the least share of values that must hold a bracket group or a
	// date for it to become a segment of its own.
	MinAtomSupport float64 `json:"min_atom_support"`
	// MaxSplitDepth bounds the recursive splitting of segments.
	MaxSplitDepth int `json:"max_split_depth"`
	// MaxMergeCooccurrence: two features under slightly different paths are merged only
	// if at most this share of the records holding either holds both.
	MaxMergeCooccurrence float64 `json:"max_merge_cooccurrence"`
	// Samples is the number of sample values kept per feature.
	Samples int `json:"samples"`

	// Mapping.

	// OptionMatchShare is the least share of a feature's distinct values that must equal
	// an option text of a select or radio group for the two to map.
	OptionMatchShare float64 `json:"option_match_share"`
	// Trials is the number of instances of a feature tried in a text field.
	Trials int `json:"trials"`
	// MinPassedTrials and MinTrialShare decide a text-field mapping: at least that many
	// trials passed, and at least that share of the trials made.
	MinPassedTrials int     `json:"min_passed_trials"`
	MinTrialShare   float64 `json:"min_trial_share"`
	// InstanceMatchShare is the share of the result instances that must equal or contain
	// the submitted value for a trial to pass (1.0 is the thesis rule: all of them).
	InstanceMatchShare float64 `json:"instance_match_share"`
	// MaxInstanceShare: an instance found in more than this share of the known records
	// is too common to test a mapping with.
	MaxInstanceShare float64 `json:"max_instance_share"`
	// MaxSubmissions caps the re-submissions of one Map call.
	MaxSubmissions int `json:"max_submissions"`

	// Logger receives progress and diagnostics. Nil discards them.
	Logger *slog.Logger `json:"-"`
}

// DefaultOptions returns the options trawl uses.
func DefaultOptions() Options {
	return Options{
		MinRecords:           2,
		MinRecordShare:       0.02,
		MaxDominantShare:     0.95,
		TypeShare:            0.9,
		SplitComposite:       true,
		MinSeparatorSupport:  0.5,
		MinAtomSupport:       0.1,
		MaxSplitDepth:        2,
		MaxMergeCooccurrence: 0.05,
		Samples:              5,
		OptionMatchShare:     0.5,
		Trials:               3,
		MinPassedTrials:      2,
		MinTrialShare:        0.6,
		InstanceMatchShare:   1.0,
		MaxInstanceShare:     0.3,
		MaxSubmissions:       60,
	}
}

// Validate reports the first invalid field.
func (o Options) Validate() error {
	share := func(name string, v float64) error {
		if v < 0 || v > 1 {
			return fmt.Errorf("schema: %s must be in [0,1], got %g", name, v)
		}
		return nil
	}
	switch {
	case o.MinRecords < 1:
		return fmt.Errorf("schema: MinRecords must be ≥ 1, got %d", o.MinRecords)
	case o.MaxDominantShare <= 0:
		return fmt.Errorf("schema: MaxDominantShare must be > 0, got %g", o.MaxDominantShare)
	case o.TypeShare <= 0:
		return fmt.Errorf("schema: TypeShare must be > 0, got %g", o.TypeShare)
	case o.MaxSplitDepth < 0:
		return fmt.Errorf("schema: MaxSplitDepth must be ≥ 0, got %d", o.MaxSplitDepth)
	case o.SplitComposite && o.MinSeparatorSupport <= 0:
		return fmt.Errorf("schema: MinSeparatorSupport must be > 0, got %g", o.MinSeparatorSupport)
	case o.SplitComposite && o.MinAtomSupport <= 0:
		return fmt.Errorf("schema: MinAtomSupport must be > 0, got %g", o.MinAtomSupport)
	case o.Samples < 0:
		return fmt.Errorf("schema: Samples must be ≥ 0, got %d", o.Samples)
	case o.Trials < 1:
		return fmt.Errorf("schema: Trials must be ≥ 1, got %d", o.Trials)
	case o.MinPassedTrials < 1:
		return fmt.Errorf("schema: MinPassedTrials must be ≥ 1, got %d", o.MinPassedTrials)
	case o.InstanceMatchShare <= 0:
		return fmt.Errorf("schema: InstanceMatchShare must be > 0, got %g", o.InstanceMatchShare)
	case o.MaxSubmissions < 0:
		return fmt.Errorf("schema: MaxSubmissions must be ≥ 0, got %d", o.MaxSubmissions)
	}
	for _, c := range []struct {
		n string
		v float64
	}{
		{"MinRecordShare", o.MinRecordShare}, {"MaxDominantShare", o.MaxDominantShare},
		{"TypeShare", o.TypeShare}, {"MinSeparatorSupport", o.MinSeparatorSupport},
		{"MinAtomSupport", o.MinAtomSupport}, {"MaxMergeCooccurrence", o.MaxMergeCooccurrence},
		{"OptionMatchShare", o.OptionMatchShare}, {"MinTrialShare", o.MinTrialShare},
		{"InstanceMatchShare", o.InstanceMatchShare}, {"MaxInstanceShare", o.MaxInstanceShare},
	} {
		if err := share(c.n, c.v); err != nil {
			return err
		}
	}
	return nil
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}
