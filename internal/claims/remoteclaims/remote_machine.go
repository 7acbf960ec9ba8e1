package remoteclaims

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/lucid-dev/lucid/gitstore"
)

// A machine, for claims shared through a remote, is a clone: every linked
// work tree of one clone shares its claims store and is one machine, and
// two clones on one host are two. Its identity is made once, on first use,
// and kept in <common git dir>/lucid/machine: 12 random hex digits, "@",
// and the host's name at that time ("4f2a9c1b7d3e@laptop"). Claim.Machine
// holds it; MachineLabel shows it as "laptop (4f2a9c)".

// KnownMachine is this clone's identity, "" when none was made yet. It only
// reads, for the hooks.
func KnownMachine(r *gitstore.Repo) string {
	b, err := gitstore.ReadFile(r.MachinePath(), gitstore.MaxRecord)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// Machine is this clone's identity, made on first use. Two processes that
// make it at once agree: the file is linked into place only when absent,
// and the loser reads the winner's.
func Machine(r *gitstore.Repo) (string, error) {
	if m := KnownMachine(r); m != "" {
		return m, nil
	}
	// Unique, not secret: math/rand/v2, as for log ids (crypto/rand's
	// first read in a process costs a tenth of a lucid claim).
	var raw [8]byte
	binary.LittleEndian.PutUint64(raw[:], rand.Uint64())
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	host, _, _ = strings.Cut(host, ".")
	id := hex.EncodeToString(raw[:6]) + "@" + host
	path := r.MachinePath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	tmp, err := gitstore.WriteTemp(filepath.Dir(path), []byte(id+"\n"), 0o644)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	if m := KnownMachine(r); m != "" {
		return m, nil
	}
	return "", errors.New("cannot read " + path + ": remove it, and lucid makes a new one")
}

// MachineLabel shows a machine identity to people and models:
// "laptop (4f2a9c)".
func MachineLabel(machine string) string {
	id, host, ok := strings.Cut(machine, "@")
	if !ok {
		return machine
	}
	return host + " (" + id[:min(6, len(id))] + ")"
}
