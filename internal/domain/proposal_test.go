package domain

import "testing"

func TestProposalRef(t *testing.T) {
	for in, want := range map[string]string{"PRP-12": "PRP-12", "prp-12": "PRP-12", "prp 12": "PRP-12", "PRP#12": "PRP-12",
		" prp_7 ": "PRP-7", "PRP-": "PRP-", "PRPX-12": "PRPX-12"} {
		got := OrderRef(in)
		if got != want {
			t.Errorf("OrderRef(%q) = %q, want %q", in, got, want)
		}
		if IsProposalRef(got) != (want == "PRP-12" || want == "PRP-7") || IsDraftRef(got) {
			t.Errorf("IsProposalRef(%q) = %v, IsDraftRef %v", got, IsProposalRef(got), IsDraftRef(got))
		}
	}
	if ProposalRef(12) != "PRP-12" {
		t.Errorf("ProposalRef(12) = %q", ProposalRef(12))
	}
}
