package probe

import _ "embed"

// The classifier trained on the Formasaurus pages of shared/data (gzip-compressed JSON; see
// docs/decisions/2026-11-22-form-classifier.md). Regenerate it after changing the
// features or the training with:
//
//	go generate ./probe
//
// which needs the shared data (TRAWL_SHARED, or a "shared" folder beside the module).

//go:generate go run ./internal/formtrain -out model_forms.json.gz

//go:embed model_forms.json.gz
var embeddedModel []byte
