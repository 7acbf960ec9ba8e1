package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lucid-dev/lucid/internal/client/clients"
	"github.com/lucid-dev/lucid/internal/doctor"
)

func init() {
	register(&command{name: "doctor", summary: "check lucid's set-up here, and say how to fix what is wrong", run: runDoctor})
}

func runDoctor(c *cli, args []string) error {
	f := newFlags("doctor", clients.DoctorHelp)
	asJSON := f.Bool("json", false, "print the checks as JSON")
	if err := f.parse(c, args); err != nil {
		return err
	}
	if f.NArg() > 0 {
		return usageErr("doctor takes no arguments")
	}
	repo, _, err := findRepo()
	if err != nil {
		return err
	}
	var v bytes.Buffer
	runVersion(&cli{stdout: &v}, nil)
	setUp, after := clients.Doctor(repo)
	findings := append(doctor.Check(repo, strings.TrimSpace(v.String()), setUp, clients.Files()), after...)
	failed := 0
	for _, fd := range findings {
		if !fd.OK {
			failed++
		}
	}
	if *asJSON {
		if err := c.printJSON(findings); err != nil {
			return err
		}
	} else {
		for _, fd := range findings {
			mark := "ok  "
			if !fd.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(c.stdout, "%s  %s: %s\n", mark, fd.Check, fd.Detail)
			if !fd.OK && fd.Fix != "" {
				fmt.Fprintf(c.stdout, "      fix: %s\n", fd.Fix)
			}
		}
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d checks failed", failed, len(findings))}
	}
	return nil
}
