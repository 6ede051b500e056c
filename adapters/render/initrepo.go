package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/hostconfig"
)

// InitCommand is what init knows of the command its entries run.
type InitCommand struct {
	// Name is the executable the entries name.
	Name string
	// NotOnPath says it was not found on this process's PATH.
	NotOnPath bool
}

// WriteInit prints what "adrkit init" did, or with a dry run would do: a
// line per file, the content of every file written (dry run) and the
// snippet of every file left for the user, then what to do next.
func WriteInit(w io.Writer, rep *app.InitReport, command InitCommand, st Style) error {
	var b strings.Builder
	verb := map[hostconfig.Outcome]string{
		hostconfig.Create: "created", hostconfig.Update: "updated",
		hostconfig.Unchanged: "unchanged", hostconfig.Manual: "left alone",
	}
	if rep.DryRun {
		verb[hostconfig.Create], verb[hostconfig.Update] = "would create", "would update"
		b.WriteString("Dry run: nothing is written.\n")
	}
	width := 0
	for _, f := range rep.Files {
		width = max(width, len(f.Path))
	}
	for _, f := range rep.Files {
		line := fmt.Sprintf("%-12s %-*s  %s", verb[f.Outcome], width, f.Path, f.Host)
		switch f.Outcome {
		case hostconfig.Create, hostconfig.Update:
			line += ": adds " + strings.Join(f.Added, ", ")
		case hostconfig.Unchanged:
			line += ": already set up"
		case hostconfig.Manual:
			line = st.Bad(line)
			line += ": " + f.Reason
		}
		b.WriteString(line + "\n")
		switch {
		case f.Outcome == hostconfig.Manual:
			b.WriteString("    add this by hand:\n" + indentBlock(f.Snippet, "    "))
		case rep.DryRun && (f.Outcome == hostconfig.Create || f.Outcome == hostconfig.Update):
			b.WriteString(indentBlock(string(f.Content), "    "))
		}
	}
	if r := rep.Record; r != nil {
		v := "created"
		if rep.DryRun {
			v = "would create"
		}
		b.WriteString(fmt.Sprintf("%-12s %s  the first decision record (%s, %s)\n", v, r.Path, r.ID, r.Status))
		if rep.DryRun {
			b.WriteString(indentBlock(r.Content, "    "))
		}
	}
	switch {
	case rep.Manual():
		b.WriteString("\nSome files were left alone: add the snippets above to them by hand, then run 'adrkit doctor'.\n")
	case !rep.Changed() && !rep.DryRun:
		b.WriteString("\nNothing to do: this repository is set up.\n")
	}
	if command.NotOnPath {
		b.WriteString("\n" + st.Bad("'"+command.Name+"' is not on this PATH") + ": the agents will not find it either. Install it\n" +
			"('go install ./cmd/adrkit' from a clone), or run init again with --command /absolute/path/to/adrkit.\n")
	}
	if rep.Changed() && !rep.DryRun {
		b.WriteString("\nThe entries run '" + command.Name + "': it must be on the PATH the agent runs with.\n" +
			"Commit them to share the set-up; 'adrkit doctor' checks it. Claude Code asks once to approve\n" +
			"a project's MCP server; Codex runs a project's hooks once you trust them.\n")
	}
	return writeString(w, b.String())
}

// indentBlock indents every line of text.
func indentBlock(text, indent string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if line == "\n" {
			b.WriteString(line)
			continue
		}
		b.WriteString(indent + line)
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
