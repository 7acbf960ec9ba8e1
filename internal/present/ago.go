package present

import (
	"fmt"
	"time"
)

// Ago says how long before now t was, in the words of a person.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case t.IsZero():
		return "at an unknown time"
	case d < time.Minute:
		return "under a minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
	}
}

// In says how long after now t comes, in the words of a person: "in 14
// min", to the nearest minute; a time past is "now".
func In(t, now time.Time) string {
	d := t.Sub(now)
	switch {
	case d <= 0:
		return "now"
	case d < time.Minute:
		return "in under a minute"
	case d < time.Hour-30*time.Second:
		return fmt.Sprintf("in %d min", int((d+30*time.Second)/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("in %d h", int((d+30*time.Minute)/time.Hour))
	default:
		return fmt.Sprintf("in %d days", int(d/(24*time.Hour)))
	}
}
