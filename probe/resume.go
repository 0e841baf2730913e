package probe

import "context"

// Done is a probe that an earlier, interrupted run of the same plan on the same form
// finished, with its pages (their HTML feeds the harvest as if the probe had just run).
type Done struct {
	Probe Probe
	Pages []Page
}

// Resume is Run after an interruption: the probes of done (finished by an earlier run of
// the same plan on the same form, with the same options) are not run again. They count
// against MaxProbes and MaxPages, their pages feed the harvest, their harvested words are
// not used again, and the plan's assignments they made are left out; the new probes are
// numbered after the highest number of done and recorded with rec as Run records them.
// With one tab, a resumed run makes the probes an uninterrupted run would have made.
// The summary counts done too (Summary.Resumed).
func (p *Prober) Resume(ctx context.Context, f Form, plan Plan, done []Done, rec Recorder) (Summary, error) {
	return p.run(ctx, f, plan, done, rec)
}

// resume counts the probes of done and returns queue and rest without the assignments
// done made.
func (r *runState) resume(done []Done, queue, rest Plan) (Plan, Plan) {
	if len(done) == 0 {
		return queue, rest
	}
	made := map[string]int{}
	for _, d := range done {
		pr := d.Probe
		r.n = max(r.n, pr.N)
		r.pagesGot += len(d.Pages)
		r.sum.Probes++
		r.sum.Resumed++
		r.sum.Pages += len(d.Pages)
		r.sum.count(pr)
		if pr.Attempts > 1 {
			r.sum.Retried++
		}
		for _, ref := range pr.Pages {
			if ref.Screenshot != "" {
				r.shotDone = true
			}
		}
		if pr.Kind == KindHarvest {
			r.sum.Harvested++
			r.h.use(pr.Terms...)
			continue
		}
		if r.harvest && pr.Error == "" && pr.Kind != KindNonsense {
			r.h.add(d.Pages)
		}
		made[pr.Kind+"\x00"+assignmentKey(Assignment{Values: pr.Assignment})]++
	}
	skip := func(pl Plan) Plan {
		var out Plan
		for _, a := range pl {
			if k := a.Kind + "\x00" + assignmentKey(a); made[k] > 0 {
				made[k]--
				continue
			}
			out = append(out, a)
		}
		return out
	}
	return skip(queue), skip(rest)
}
