package domain

import (
	"time"
	_ "time/tzdata" // the business's zone resolves on hosts without a zoneinfo database
)

// DefaultZone is the business's time zone when MUNSHI_TZ names none.
const DefaultZone = "Asia/Kolkata"

// DefaultLocation is DefaultZone. India has kept +05:30 without daylight
// saving since 1945, so the fixed zone it falls back on is exact.
func DefaultLocation() *time.Location {
	if loc, err := time.LoadLocation(DefaultZone); err == nil {
		return loc
	}
	return time.FixedZone(DefaultZone, 5*3600+30*60)
}
