package guard

import "strings"

// PatchPaths returns the paths an apply_patch patch (Codex CLI's format)
// adds, updates, deletes, or moves from and to, in the order they appear,
// each once. It reads every file header it can find, so a patch that is
// malformed elsewhere still names its paths.
func PatchPaths(patch string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if p, ok := strings.CutPrefix(line, h); ok {
				if p = strings.TrimSpace(p); p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
