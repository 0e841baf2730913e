package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SettingKeys are the keys Set takes: the per-job settings of a jobs file
// ('trawl batch') and of a queued job.
var SettingKeys = []string{"max-probes", "max-pages", "pages-per-probe", "rounds", "guided-values", "delay",
	"ignore-robots", "allow-post", "resubmit", "no-report", "http-pages", "tabs", "force-form", "kb"}

// Set applies one key=value setting (SettingKeys) to the options. The error says what
// the value should have been.
func (o *Options) Set(k, v string) error {
	atoi := func(dst *int, least int) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return fmt.Errorf("want a whole number ≥ %d, got %q", least, v)
		}
		*dst = n
		return nil
	}
	boolean := func(dst *bool) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", v)
		}
		*dst = b
		return nil
	}
	switch k {
	case "max-probes":
		return atoi(&o.Probe.MaxProbes, 0)
	case "max-pages":
		return atoi(&o.Probe.MaxPages, 0)
	case "pages-per-probe":
		return atoi(&o.Probe.MaxPagesPerProbe, 0)
	case "rounds":
		return atoi(&o.Rounds, 0)
	case "guided-values":
		return atoi(&o.GuidedValues, 0)
	case "tabs":
		return atoi(&o.Probe.Tabs, 1)
	case "delay":
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("want a duration such as 1s, got %q", v)
		}
		o.Probe.Delay = d
	case "ignore-robots":
		return boolean(&o.Probe.IgnoreRobots)
	case "allow-post":
		return boolean(&o.Probe.AllowPOST)
	case "resubmit":
		return boolean(&o.Resubmit)
	case "no-report":
		return boolean(&o.NoReport)
	case "http-pages":
		return boolean(&o.HTTPPages)
	case "force-form":
		o.Probe.ForceForm = v
	case "kb":
		o.KB = v
	default:
		return fmt.Errorf("unknown key (known: %s)", strings.Join(SettingKeys, ", "))
	}
	return nil
}
