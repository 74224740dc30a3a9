package plan

// Review is what the operator did with a plan's proposed changes when applying
// it: the hunks rejected, the files left unticked, and the files whose proposed
// content the operator edited by hand. A re-plan describes it to the model, so
// the next plan does not propose the rejected changes again.
type Review struct {
	Files []FileReview `json:"files"`
}

// FileReview is the review of one proposed file change.
type FileReview struct {
	Path string `json:"path"`
	// Hunks is how many hunks the proposed diff has.
	Hunks int `json:"hunks"`
	// Rejected are the rejected hunks, numbered from 1 as the preview diff shows them.
	Rejected []int `json:"rejected,omitempty"`
	// Unticked: the whole change was left out.
	Unticked bool `json:"unticked,omitempty"`
	// Edited: the operator replaced the proposed content with their own;
	// EditDiff is the unified diff from the proposal to the operator's version.
	Edited   bool   `json:"edited,omitempty"`
	EditDiff string `json:"edit_diff,omitempty"`
}

// Empty reports a review in which the operator took every change as proposed.
func (r *Review) Empty() bool {
	if r == nil {
		return true
	}
	for _, f := range r.Files {
		if len(f.Rejected) > 0 || f.Unticked || f.Edited {
			return false
		}
	}
	return true
}
