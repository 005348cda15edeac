package media

import (
	"crypto/rand"

	"github.com/munshi/munshi/internal/domain"
)

// IDLength is the length of every id.
const IDLength = 26

// idAlphabet is RFC 4648 base32: letters and digits only, safe in a URL
// path and in a Redis key.
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

// NewID returns a fresh id: 26 base32 characters, 130 random bits from
// crypto/rand, so that a link cannot be guessed.
func NewID() string {
	b := make([]byte, IDLength)
	rand.Read(b) // never fails (it crashes the program instead)
	for i := range b {
		b[i] = idAlphabet[b[i]%32] // 256 is a multiple of 32: no bias
	}
	return string(b)
}

// ValidID reports whether s has the form of an id, so that nothing else is
// ever looked up.
func ValidID(s string) bool {
	if len(s) != IDLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// CheckID is ValidID as the error every Store's Get returns (EINVALID),
// without repeating what was given.
func CheckID(id string) error {
	if !ValidID(id) {
		return domain.Errorf(domain.EINVALID, "media: not a file id")
	}
	return nil
}
