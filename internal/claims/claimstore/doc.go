// Package claimstore is the file of claims on this machine (and its copy
// of a remote's): loading, saving and editing the claims, and scanning the
// file for the claims a caller wants without decoding the others.
package claimstore
