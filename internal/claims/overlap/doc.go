// Package overlap is the exact intersection of doublestar globs: whether two
// globs can match a common path, decided on the patterns as regular
// languages whether or not such a file exists (Globs), and the shortest
// such path (Witness). Match is doublestar's matching on the same terms, so
// a claim granted by Globs and a write checked by Match never disagree;
// Clean keeps a claim to the globs for which that answer is exact.
//
// It imports nothing of lucid's: paths are slash-separated and relative,
// and what a path or a claim means is the callers' business.
package overlap
