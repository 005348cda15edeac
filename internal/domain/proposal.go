package domain

import (
	"regexp"
	"strconv"
	"strings"
)

// ProposalPrefix begins the reference of a change to the books shown for
// an ok (PRP-12): a payment waiting for an owner is approved by it.
const ProposalPrefix = "PRP-"

// ProposalRef is the reference of proposal number n: PRP-12.
func ProposalRef(n int64) string { return ProposalPrefix + strconv.FormatInt(n, 10) }

// IsProposalRef reports whether s, as OrderRef writes it, names a
// proposal.
func IsProposalRef(s string) bool {
	n, ok := strings.CutPrefix(s, ProposalPrefix)
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// proposalNumber is how people write a proposal's reference: PRP-12,
// "prp 12", "PRP#12".
var proposalNumber = regexp.MustCompile(`(?i)^prp\s*[-#_ ]?\s*#?\s*(\d{1,12})$`)
