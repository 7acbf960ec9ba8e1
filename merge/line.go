package merge

import "github.com/lucid-dev/lucid/logformat"

// A line of the log is an entry when logformat.DecodeEntry accepts it, and
// nowhere else: the driver and every reader agree on which lines count.
// DecodeEntry costs about 7 µs a line (encoding/json, ten allocations),
// which would spend the driver's whole budget on a million lines, so
// lineEntry asks the log's fast head reader first, which reads the line
// once without allocating and answers whenever it is sure; the rare line
// it is not sure of (which lucid never writes) goes to DecodeEntry.

// lineEntry returns the id and time of line, and whether line is an entry.
// The returned strings are line's bytes when the fast reader answered:
// copy them to keep them.
func lineEntry(line []byte) (id, at string, ok bool) {
	var h logformat.Head
	if ok, sure := logformat.DecodeHeadShared(line, &h); sure {
		return h.ID, h.At, ok
	}
	e, err := logformat.DecodeEntry(line)
	if err != nil {
		return "", "", false
	}
	return e.ID, e.At, true
}
