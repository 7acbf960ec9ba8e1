// Package merge is the git merge driver of .lucid/log.jsonl, which unites
// the entries of both sides without loss or doubles, and the installer of
// its .gitattributes line and git config (Install, InstallConfig,
// Uninstall, ConfigInstalled), with the checks of `lucid doctor` (Check).
//
// git runs the driver for merges, rebases, cherry-picks and reverts,
// wherever both sides changed the log: see Driver for the rules, and
// DriverCommand for the fallback when lucid is not installed.
package merge
