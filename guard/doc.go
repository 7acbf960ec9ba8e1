// Package guard decides about one tool call of an agent: which paths it
// writes (Edit, Write, NotebookEdit, and shell commands parsed with
// mvdan.cc/sh), whether a claim forbids it, and lich's edit markers.
package guard
