package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// What lucid version says for each way it is built: stamped by make dist,
// go install of a tagged module, go build in a checkout, and with nothing.
func TestVersionLine(t *testing.T) {
	gov := runtime.Version()
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name, version, commit, date string
		bi                          *debug.BuildInfo
		want                        string
	}{
		{"make dist", "v1.2.3", "0123456789abcdef0123", "2026-01-02T03:04:05Z", checkout,
			"lucid v1.2.3 (" + gov + ", commit 0123456789ab, built 2026-01-02T03:04:05Z)"},
		{"go install module@version", "", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}},
			"lucid v1.2.3 (" + gov + ")"},
		{"go build in a checkout", "", "", "", checkout,
			"lucid devel (" + gov + ", commit 0123456789ab with local changes, committed 2026-01-02T03:04:05Z)"},
		{"make build", "v1.2.3-4-g0123456", "", "", checkout,
			"lucid v1.2.3-4-g0123456 (" + gov + ", commit 0123456789ab with local changes, committed 2026-01-02T03:04:05Z)"},
		{"no build info", "", "", "", nil, "lucid devel (" + gov + ")"},
	} {
		if got := versionLine(tc.version, tc.commit, tc.date, tc.bi); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
