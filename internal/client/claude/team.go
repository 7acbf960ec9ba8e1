package claude

import "strings"

// Teammate reads a teammate's name in its agent team from the id Claude
// Code gives it as a subagent: an in-process teammate is
// "a<name>-<16 hex>" (aalpha-29065eaa7bbaa962), where a plain subagent is
// "a<17 hex>". It returns the name and the hex.
func (Client) Teammate(subagent string) (name, hex string, ok bool) {
	i := strings.LastIndexByte(subagent, '-')
	if i < 2 || subagent[0] != 'a' || len(subagent)-i-1 != 16 {
		return "", "", false
	}
	hex = subagent[i+1:]
	for _, c := range hex {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", "", false
		}
	}
	return subagent[1:i], hex, true
}
