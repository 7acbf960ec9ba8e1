package main

import (
	"path/filepath"
	"testing"

	"github.com/lucid-dev/lucid/internal/testkit/foldfs"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestScriptsOnFoldingFS runs testdata/foldfs/*.txtar in a folder whose
// names fold case as a Mac's or a PC's do (a FUSE mount; skipped, saying
// why, where FUSE is missing): git init there sets core.ignorecase itself,
// and the claims hold for every spelling of a path.
func TestScriptsOnFoldingFS(t *testing.T) {
	root := foldfs.Mount(t, foldfs.FoldCase)
	p := scriptParams(filepath.Join("..", "..", "testdata", "foldfs"))
	p.WorkdirRoot = root
	testscript.Run(t, p)
}

// TestScriptsOnNormalisingFS runs testdata/foldnorm/*.txtar in a folder
// whose names fold case and Unicode normalisation, as a Mac's do.
func TestScriptsOnNormalisingFS(t *testing.T) {
	root := foldfs.Mount(t, foldfs.FoldCaseNorm)
	p := scriptParams(filepath.Join("..", "..", "testdata", "foldnorm"))
	p.WorkdirRoot = root
	testscript.Run(t, p)
}
