// Package merge is the git merge driver of .lucid/log.jsonl, which unites
// the entries of both sides without loss or doubles, and the installer of
// its .gitattributes line and git config.
package merge
