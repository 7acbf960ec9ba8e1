package merge

import "github.com/lucid-dev/lucid/internal/log/logformat"

// A line of the log is an entry when logformat.DecodeEntry accepts it, and
// nowhere else: the driver and every reader agree on which lines count.
// DecodeEntry costs about 7 µs a line (encoding/json, ten allocations),
// which would spend the driver's whole budget on a million lines, so the
// driver reads heads through logformat.ReadHeadShared, which asks
// DecodeEntry only of a line its fast reader is not sure of.

// lineEntry returns the id and time of line, and whether line is an entry.
// The returned strings are line's bytes when the fast reader answered:
// copy them to keep them.
func lineEntry(line []byte) (id, at string, ok bool) {
	var h logformat.Head
	if !logformat.ReadHeadShared(line, &h) {
		return "", "", false
	}
	return h.ID, h.At, true
}
