// Package lichstore is the markers lucid shares with lich's guard: for
// each file, the sessions that edited it last and when, in lich's own
// format, their clean-up, and the news of another session's edit kept for
// the session that was told of it.
package lichstore
