package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"
	"golang.org/x/text/width"

	adrcli "github.com/adrkit/adrkit-go/adapters/cli"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
	"github.com/adrkit/adrkit-go/domain/lineage"
	"github.com/adrkit/adrkit-go/ports"
)

// findingsWalkLimit is the findings page size of the human mode, which
// reads every page to count them.
const findingsWalkLimit = 100

func chainCommand(stdout io.Writer, env environment) *cli.Command {
	return &cli.Command{
		Name:      "chain",
		Usage:     "follow what replaced a decision and say whether to act on it",
		UsageText: "adrkit chain REF [--json [--findings-limit N] [--findings-cursor C]]",
		Description: "Walks the supersedes/supersededBy lineage of REF (at most 12 steps each way) and prints it\n" +
			"oldest first, then the verdict: current (the newest record is accepted and nothing replaces\n" +
			"it) or hold, with the reason and what to do. This is the get_supersession_chain tool.\n" +
			"Exits 1 on hold, and when no single local record has the id.\n\n" +
			"Examples:\n" +
			"  adrkit chain 0003\n" +
			"  adrkit chain 0003 --json\n" +
			"  adrkit chain 0003 && ./deploy.sh      # only when 0003's line is settled",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the structured answer the MCP tool returns ({corpusHealth, result}), one findings page of it"},
			&cli.IntFlag{Name: "findings-limit", Usage: "with --json: findings page size, 1 to 100 (default 20)", HideDefault: true},
			&cli.StringFlag{Name: "findings-cursor", Usage: "with --json: the findings cursor of the previous page"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usageError{command: cmd.FullName(), msg: "chain needs exactly one REF, e.g. adrkit chain 0003"}
			}
			asJSON := cmd.Bool("json")
			in := app.ChainInput{Ref: cmd.Args().First()}
			for _, n := range []string{"findings-limit", "findings-cursor"} {
				if cmd.IsSet(n) && !asJSON {
					return usageError{command: cmd.FullName(), msg: "--" + n + " pages the --json output; without --json every page is read"}
				}
			}
			if cmd.IsSet("findings-limit") && cmd.Int("findings-limit") == 0 {
				return usageError{command: cmd.FullName(), msg: "--findings-limit must be from 1 to 100, got 0"}
			}
			in.FindingsLimit = cmd.Int("findings-limit")
			if cmd.IsSet("findings-cursor") {
				c := cmd.String("findings-cursor")
				in.FindingsCursor = &c
			}
			s, err := settle(ctx, cmd, env)
			if err != nil {
				return err
			}
			if !asJSON {
				in.FindingsLimit = findingsWalkLimit
			}
			res, err := s.service.GetSupersessionChain(ctx, in)
			if err != nil {
				return s.failure(err)
			}
			if res.IsError {
				return usageError{command: cmd.FullName(), msg: adrcli.RefusalDetail(app.ToolGetSupersessionChain, res.Text)}
			}
			ans, ok := res.Structured.(app.Answer)
			if !ok {
				return exitError{code: exitFailure, msg: "get_supersession_chain gave an answer of an unexpected shape"}
			}
			if asJSON {
				if err := adrcli.WriteJSON(stdout, ans); err != nil {
					return err
				}
			}
			switch r := ans.Result.(type) {
			case app.CorpusUnavailable:
				return s.failure(&ports.UnavailableError{Reason: r.Reason})
			case app.InvalidCursor:
				return usageError{command: cmd.FullName(), msg: "the cursor was refused: " + r.Message}
			}
			if !asJSON {
				findings, err := chainFindings(ctx, s.service, in, ans.Result)
				if err != nil {
					return s.failure(err)
				}
				if err := writeChain(stdout, ans.Result, findings, s.style); err != nil {
					return err
				}
			}
			if chainStatus(ans.Result) != exitOK {
				return exitError{code: exitFailure}
			}
			return nil
		},
	}
}

// chainStatus is 0 when the line may be acted on, 1 otherwise: on hold,
// or no single local record for the ref.
func chainStatus(result any) int {
	if c, ok := result.(app.ChainAnswer); ok {
		if _, current := c.Verdict.(app.ChainCurrent); current {
			return exitOK
		}
	}
	return exitFailure
}

// chainFindings reads every findings page of the answer, so that the
// closing note counts them all.
func chainFindings(ctx context.Context, svc *app.Service, in app.ChainInput, result any) ([]adr.Finding, error) {
	page := chainFindingsPage(result)
	all := page.Items
	for page.Cursor != nil {
		in.FindingsCursor = page.Cursor
		res, err := svc.GetSupersessionChain(ctx, in)
		if err != nil {
			return nil, err
		}
		ans, _ := res.Structured.(app.Answer)
		page = chainFindingsPage(ans.Result)
		if page.Items == nil {
			return nil, fmt.Errorf("the corpus changed while its findings were being read; run the command again")
		}
		all = append(all, page.Items...)
	}
	return all, nil
}

func chainFindingsPage(result any) app.FindingsPage {
	switch r := result.(type) {
	case app.ChainAnswer:
		return r.Findings
	case app.NotFound:
		return r.Findings
	case app.AmbiguousChain:
		return r.Findings
	case app.Federated:
		return r.Findings
	}
	return app.FindingsPage{}
}

// writeChain renders a get_supersession_chain answer for a person.
func writeChain(w io.Writer, result any, findings []adr.Finding, st adrcli.Style) error {
	var b strings.Builder
	switch r := result.(type) {
	case app.ChainAnswer:
		t := columns{header: []string{"HOP", "ID", "STATUS", "DATE", "TITLE", "PATH"}, style: st}
		for _, n := range r.Chain {
			hop := strconv.Itoa(n.Hop)
			if n.Hop > 0 {
				hop = "+" + hop
			}
			t.add(
				styled(hop, st.Dim), styled(n.ID, st.Bold),
				styled(string(n.Status), func(s string) string { return st.Status(n.Status, s) }),
				styled(n.Date, nil), styled(n.Title, nil), styled(n.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
		b.WriteString("\n")
		switch v := r.Verdict.(type) {
		case app.ChainCurrent:
			b.WriteString(st.Good("Current:") + " " + v.Action + ".\n")
		case app.ChainHold:
			b.WriteString(st.Bad("Hold ("+string(v.Reason)+"):") + " " + v.Action + ".\n")
		}
		if len(r.Gaps) > 0 {
			b.WriteString("\n" + st.Dim("The older history has gaps:") + "\n")
			for _, g := range r.Gaps {
				b.WriteString("  " + g.At + " → " + g.Ref + ": " + gapText(g.Reason) + "\n")
			}
		}
	case app.AmbiguousChain:
		b.WriteString("Several records use the id " + strconv.Quote(r.RequestedRef) + "; each needs an id of its own (adrkit lint reports it).\n\n")
		t := columns{header: []string{"ID", "STATUS", "TITLE", "PATH"}, style: st}
		for _, c := range r.Candidates {
			t.add(styled(c.ID, st.Bold), styled(string(c.Status), func(s string) string { return st.Status(c.Status, s) }),
				styled(c.Title, nil), styled(c.SourcePath, st.Dim))
		}
		b.WriteString(t.String())
	case app.NotFound:
		b.WriteString("No valid record has the id " + strconv.Quote(r.RequestedRef) +
			". (A record that fails validation is left out; adrkit lint lists those.)\n")
	case app.Federated:
		b.WriteString(strconv.Quote(r.RequestedRef) + " names a record in the decision log " + strconv.Quote(r.Log) +
			"; adrkit reads a single log, so it cannot follow it.\n")
	default:
		return fmt.Errorf("unexpected get_supersession_chain outcome %T", result)
	}
	b.WriteString(findingsLine(st, findings))
	_, err := io.WriteString(w, b.String())
	return err
}

// gapText says why the walk towards older records stopped there.
func gapText(r lineage.Reason) string {
	switch r {
	case lineage.Dangling:
		return "no record has this id"
	case lineage.Ambiguous:
		return "several records share this id"
	case lineage.NotObserved:
		return "in another decision log, not readable here"
	case lineage.Cycle:
		return "the replacements loop"
	case lineage.Truncated:
		return "more than 12 steps back; not followed"
	}
	return string(r)
}

// findingsLine is the closing note about the corpus findings, worded as
// the other commands word it.
func findingsLine(st adrcli.Style, fs []adr.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	var e, w, i int
	for _, f := range fs {
		switch f.Severity {
		case adr.SeverityError:
			e++
		case adr.SeverityWarn:
			w++
		default:
			i++
		}
	}
	var parts []string
	if e > 0 {
		parts = append(parts, st.Severity(adr.SeverityError, countOf(e, "error", "errors")))
	}
	if w > 0 {
		parts = append(parts, st.Severity(adr.SeverityWarn, countOf(w, "warning", "warnings")))
	}
	if i > 0 {
		parts = append(parts, st.Severity(adr.SeverityInfo, countOf(i, "info", "info")))
	}
	return "\n" + st.Dim("Findings with this answer: ") + strings.Join(parts, ", ") + st.Dim(" (adrkit lint explains them).") + "\n"
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// cellText is one table cell: its text, flattened to one line, and how to
// colour it once padded (colour after padding keeps columns aligned).
type cellText struct {
	text  string
	paint func(string) string
}

func styled(text string, paint func(string) string) cellText {
	return cellText{text: strings.Join(strings.Fields(strings.ReplaceAll(text, "\t", " ")), " "), paint: paint}
}

// columns is the aligned table of the other commands: two spaces between
// columns, a bold header, the last column never padded.
type columns struct {
	header []string
	rows   [][]cellText
	style  adrcli.Style
}

func (c *columns) add(cells ...cellText) { c.rows = append(c.rows, cells) }

func (c *columns) String() string {
	all := make([][]cellText, 0, len(c.rows)+1)
	if c.header != nil {
		h := make([]cellText, len(c.header))
		for i, name := range c.header {
			h[i] = cellText{text: name, paint: c.style.Bold}
		}
		all = append(all, h)
	}
	all = append(all, c.rows...)
	var widths []int
	for _, row := range all {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(cell.text))
		}
	}
	var b strings.Builder
	for _, row := range all {
		var line strings.Builder
		for i, cell := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			text := cell.text
			if cell.paint != nil {
				text = cell.paint(text)
			}
			line.WriteString(text)
			if i < len(row)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-displayWidth(cell.text)))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// displayWidth counts terminal columns: wide and full-width characters
// take two.
func displayWidth(text string) int {
	n := 0
	for _, r := range text {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
