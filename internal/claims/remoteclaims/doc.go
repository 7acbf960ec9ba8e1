// Package remoteclaims shares claims through a git remote: a ref whose
// commit holds one file per claim, fetched and pushed with a lease, this
// clone's machine identity, and the configuration that names the remote.
package remoteclaims
