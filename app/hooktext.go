package app

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/agenthost"
)

// The budgets of what a hook adds to the model's context, in characters
// (code points): hosts cap hook output, and every character is paid for
// on every edit.
const (
	contextMax = 2000
	digestMax  = 1500
	// tailPathsMax bounds the paths the context's last line names, and
	// those a group of files with the same lines is named by.
	tailPathsMax = 300
)

// block is what one file's coverage says: a line per covering decision
// and per hold. Two files with the same lines are shown together.
type block struct {
	Path string
	// Lines are the decision and hold lines, without the list marker.
	Lines []string
	// History says a line is a rejected, superseded or deprecated
	// decision (which the context tells the agent not to propose again).
	History bool
}

// key identifies what the block says about its file, for the session's
// memory: the same key is the same context for the same file.
func (b block) key() string {
	h := sha256.New()
	h.Write([]byte(b.Path))
	for _, l := range b.Lines {
		h.Write([]byte{0})
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// blocksOf lays out the governance of each covered file, files in g's
// order; a file nothing covers has no block.
func blocksOf(g *governance) []block {
	var out []block
	for _, f := range g.Files {
		if !f.covered() {
			continue
		}
		b := block{Path: f.Path}
		for _, e := range f.Governing {
			line := "governs: " + entryHead(e) + " (accepted; " + matchedBy(e) + ")"
			if e.Decision != "" {
				line += ": " + e.Decision
			}
			b.Lines = append(b.Lines, line)
		}
		for _, e := range f.History {
			detail := ""
			if by := e.Relations.SupersededBy; by != nil && e.Status == adr.StatusSuperseded {
				detail = "by " + *by + "; "
			}
			b.Lines = append(b.Lines, string(e.Status)+": "+entryHead(e)+" ("+detail+matchedBy(e)+")")
			b.History = true
		}
		for _, e := range f.ActiveProposals {
			line := "not decided yet (" + string(e.Status) + "): " + entryHead(e) + " (" + matchedBy(e) + ")"
			if sup := e.Relations.Supersedes; len(sup) > 0 {
				// Until it is accepted, what it names still governs.
				line += "; would replace " + strings.Join(sup, ", ") + " once accepted"
			}
			b.Lines = append(b.Lines, line)
		}
		for _, h := range g.Holds {
			for _, p := range h.Files {
				if p == f.Path {
					b.Lines = append(b.Lines, "on hold: "+string(h.Decision.ID)+"'s line of supersession is not settled ("+
						string(h.Reason)+"): "+h.Action)
				}
			}
		}
		out = append(out, b)
	}
	return out
}

func entryHead(e governEntry) string {
	return string(e.ID) + " " + strconv.Quote(string(e.Title))
}

// matchedBy says how a record came to cover the file: the affects
// matchers that fired and the @adr markers that declared it.
func matchedBy(e governEntry) string {
	var why []string
	for _, f := range e.FiredMatchers {
		why = append(why, string(f.Type)+" "+string(f.Pattern))
	}
	for _, d := range e.DeclaredBy {
		why = append(why, "@adr in "+string(d.Path)+":"+strconv.Itoa(d.Line))
	}
	return strings.Join(why, ", ")
}

// contextText is the context for an edit of blocks' files, at most
// contextMax characters: the blocks in order, files with the same lines
// together, then, past the budget, how many lines were left out and how
// to see them. errors is the corpus's error count (a line says the answer
// is read from the valid records only); omitted counts the files the
// event named past agenthost.MaxEventFiles, which were not looked at (a
// line says so, even without a block); after says the files were
// written already (the host's edit event comes after the tool). "" when
// there is nothing to say.
func contextText(dir string, blocks []block, errors, omitted int, after bool) string {
	skipped := ""
	if omitted > 0 {
		skipped = fmt.Sprintf("The edit names %d files: adrkit looked at the first %d only and left %d out "+
			"(adrkit explain FILE answers for any of them).\n", agenthost.MaxEventFiles+omitted, agenthost.MaxEventFiles, omitted)
	}
	if len(blocks) == 0 {
		return strings.TrimSuffix(skipped, "\n")
	}
	type group struct {
		paths []string
		b     block
	}
	var groups []group
	history := false
	for _, b := range blocks {
		history = history || b.History
		merged := false
		for i := range groups {
			if slices.Equal(groups[i].b.Lines, b.Lines) {
				groups[i].paths = append(groups[i].paths, b.Path)
				merged = true
				break
			}
		}
		if !merged {
			groups = append(groups, group{paths: []string{b.Path}, b: b})
		}
	}

	var paths []string
	for _, b := range blocks {
		paths = append(paths, b.Path)
	}
	var out strings.Builder
	out.WriteString("Architecture decisions (adrkit, " + dirName(dir) + ") cover the file")
	if len(blocks) > 1 {
		out.WriteString("s")
	}
	if after {
		out.WriteString(" just written. Follow the accepted ones.")
	} else {
		out.WriteString(" about to be written. Follow the accepted ones.")
	}
	if history {
		out.WriteString(" Rejected and superseded decisions were decided against or replaced: do not propose them again.")
	}
	out.WriteString("\n")
	if errors > 0 {
		out.WriteString("The corpus has " + count(errors, "error") + " (adrkit lint): this is read from its valid records only.\n")
	}
	out.WriteString(skipped)
	// The paths to explain, cut short when a patch names many files, so
	// that the tail never eats the budget.
	explain := strings.Join(paths, " ")
	if utf8.RuneCountInString(explain) > tailPathsMax {
		explain = ""
		for _, p := range paths {
			if utf8.RuneCountInString(explain+p) > tailPathsMax {
				break
			}
			explain += p + " "
		}
		explain += "…"
	}
	tail := func(n int) string {
		return "and " + strconv.Itoa(n) + " more: adrkit explain " + explain + "\n"
	}
	used := utf8.RuneCountInString(out.String())
	left := 0
	for _, g := range groups {
		head := strings.Join(g.paths, ", ")
		if utf8.RuneCountInString(head) > tailPathsMax {
			// Many files with the same lines (a patch): name the first.
			head = ""
			for i, p := range g.paths {
				if utf8.RuneCountInString(head+p) > tailPathsMax {
					head += "and " + strconv.Itoa(len(g.paths)-i) + " more files"
					break
				}
				head += p + ", "
			}
		}
		head += ":\n"
		for i, l := range g.b.Lines {
			line := "- " + l + "\n"
			if i == 0 {
				line = head + line
			}
			n := utf8.RuneCountInString(line)
			if left > 0 || used+n+utf8.RuneCountInString(tail(999)) > contextMax {
				left++
				continue
			}
			out.WriteString(line)
			used += n
		}
	}
	if left > 0 {
		out.WriteString(tail(left))
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// digestText is the digest for the start of a session, at most
// digestMax characters; "" for a corpus with no record and no error.
func digestText(dir string, d *digest) string {
	if d.Records == 0 && d.Errors == 0 {
		return ""
	}
	var out strings.Builder
	out.WriteString("This repository records its architecture decisions in " + dirName(dir) + " (adrkit): " + count(d.Records, "valid record"))
	for i, c := range d.Counts {
		if i == 0 {
			out.WriteString(" (")
		} else {
			out.WriteString(", ")
		}
		out.WriteString(strconv.Itoa(c.Count) + " " + string(c.Status))
	}
	if len(d.Counts) > 0 {
		out.WriteString(")")
	}
	out.WriteString(".\n")
	if d.Errors > 0 {
		out.WriteString("The corpus has " + count(d.Errors, "error") + " (adrkit lint); records with errors are left out of its answers.\n")
	}
	const how = "Before designing a change or editing a file, ask what governs it: the MCP tools get_decision_context and " +
		"search_decisions, or adrkit explain FILE. Follow accepted decisions; record a new one as proposed (adrkit new)."
	if len(d.Rejected) > 0 {
		budget := digestMax - utf8.RuneCountInString(out.String()) - utf8.RuneCountInString(how) - 1
		line := "Rejected, do not propose again:"
		more := " and N more (adrkit search --status rejected)."
		for i, r := range d.Rejected {
			item := " " + r.ID + " " + strconv.Quote(r.Title) + ";"
			if utf8.RuneCountInString(line+item+more) > budget {
				line = strings.TrimSuffix(line, ";") + " and " + strconv.Itoa(len(d.Rejected)-i) + " more (adrkit search --status rejected)."
				break
			}
			line += item
			if i == len(d.Rejected)-1 {
				line = strings.TrimSuffix(line, ";") + "."
			}
		}
		out.WriteString(line + "\n")
	}
	out.WriteString(how)
	return out.String()
}

func dirName(dir string) string {
	if dir == "" || dir == "." {
		return "the repository root"
	}
	return dir
}

// promptText is the context for a prompt that a record answers (a), one
// line naming the record and what to do with it; "" when none does. A
// rejected or replaced record is named with "do not propose again", a
// replaced one with the record in force.
func promptText(a AskAnswer) string {
	d := a.Decision
	if d == nil {
		return ""
	}
	head := string(d.ID) + " " + strconv.Quote(string(d.Title))
	switch {
	case a.Outcome == AskFound && !a.DoNotPropose:
		return fmt.Sprintf("adrkit: decided by %s (%s, %s); follow it.", head, d.Status, d.SourcePath)
	case a.Outcome == AskFound:
		c := a.Current
		return fmt.Sprintf("adrkit: %s (%s) was replaced - do not propose it again; in force: %s %q (%s, %s).",
			head, d.Status, c.ID, c.Title, c.Status, c.SourcePath)
	case a.DoNotPropose && d.Status == adr.StatusRejected:
		return fmt.Sprintf("adrkit: %s was rejected - do not propose it again (%s).", head, d.SourcePath)
	case a.DoNotPropose:
		return fmt.Sprintf("adrkit: %s (%s) - do not propose it again: %s (%s).", head, d.Status, a.Action, d.SourcePath)
	}
	return fmt.Sprintf("adrkit: %s (%s) answers this, but its line is on hold: %s (%s).", head, d.Status, a.Action, d.SourcePath)
}
