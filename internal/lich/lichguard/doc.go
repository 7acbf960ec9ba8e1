// Package lichguard is lich's edit guard as lucid's hooks run it inside a
// lich session: before an edit, a note naming the other sessions that
// just edited the file (by their labels in lich's roster); after it, this
// session's markers (package lichstore keeps them); and the news for the
// status line.
package lichguard
