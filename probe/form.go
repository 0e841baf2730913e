package probe

import "github.com/trawl-dev/trawl/internal/rundir"

// The input schema of a form (form.json) and the probe log (probes.jsonl) belong to the
// run directory: their types live in internal/rundir, which every stage shares, and
// keep their names here.
type (
	// Class is what a form is for.
	Class = rundir.Class
	// Form is one form of a page (rundir.Form).
	Form = rundir.Form
	// Field is one control of a form (rundir.Field).
	Field = rundir.Field
	// Option is one choice of a select, radio group or checkbox group.
	Option = rundir.Option
	// Probe is one submission of the form: one line of probes.jsonl (rundir.Probe).
	Probe = rundir.Probe
	// PageRef is one saved result page of a probe (rundir.PageRef).
	PageRef = rundir.PageRef
)

// The form classes. trawl submits only ClassSearch forms unless told otherwise.
const (
	ClassSearch           = rundir.ClassSearch
	ClassLogin            = rundir.ClassLogin
	ClassRegistration     = rundir.ClassRegistration
	ClassPasswordRecovery = rundir.ClassPasswordRecovery
	ClassContact          = rundir.ClassContact
	ClassMailingList      = rundir.ClassMailingList
	ClassOrder            = rundir.ClassOrder
	ClassOther            = rundir.ClassOther
)
