// Package setup is what lucid's set-up commands report, in one form
// whoever made it: a Change that lucid init or lucid uninstall made (the
// merge driver's installer and every client's alike), and a Finding of
// lucid doctor's checks (the merge driver's, the clients' and the
// repository's alike).
package setup

// Change is one file the installer created, changed or removed.
type Change struct {
	Path string // the file, relative to the work tree's top when inside it
	What string // what changed in it
}

// Finding is the result of one check of lucid doctor.
type Finding struct {
	Check  string `json:"check"`         // what was checked
	OK     bool   `json:"ok"`            // whether it passed
	Detail string `json:"detail"`        // what was found
	Fix    string `json:"fix,omitempty"` // what to do, when it failed
}
