package gitstore

// LiveEntry is an entry that still holds, with the kind it stands for: a
// replacement (a supersede entry) stands for the kind of what it replaced.
type LiveEntry struct {
	Entry
	StandsFor string `json:"stands_for"`
}

// Live returns the entries that hold, oldest first: neither superseded nor
// retired, leaving out retirements and dream points. It reads the whole
// log; it is for consolidation (lucid dream), not for the hooks.
func (r *Repo) Live() ([]LiveEntry, int, error) {
	var all []Entry
	byID := map[string]int{}
	superseded := map[string]bool{}
	invalid, err := Scan(r.LogPath(), func(e Entry) bool {
		byID[e.ID] = len(all)
		all = append(all, e)
		if e.Kind == KindSupersede {
			superseded[e.Supersedes] = true
		}
		return true
	})
	if err != nil {
		return nil, invalid, err
	}
	var out []LiveEntry
	for _, e := range all {
		if superseded[e.ID] || e.Retired || e.Kind == KindDream {
			continue
		}
		// Follow a chain of replacements back to the entry it began with.
		root := e
		for hops := 0; root.Kind == KindSupersede && hops < len(all); hops++ {
			i, ok := byID[root.Supersedes]
			if !ok {
				break
			}
			root = all[i]
		}
		out = append(out, LiveEntry{Entry: e, StandsFor: root.Kind})
	}
	return out, invalid, nil
}
