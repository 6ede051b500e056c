// Command adrkit-bench measures adrkit-mcp end to end, the way an agent
// uses it: it generates corpora of several sizes, starts the server on
// each, makes the handshake and times tool-call round trips over stdio,
// the time from process start to the initialize answer and the peak
// resident memory. In the same run, and interleaved with the tool calls,
// it times the floor: this process listing the ADR directory and reading
// and SHA-256-hashing every record file once, which is the least any
// answer that is never stale must do. Every time is also reported as a
// ratio to the floor of its size. It times `adrkit lint` on the largest
// corpus too, when that command exists.
//
// Results go to stdout as a Markdown table and to the output directory as
// results.json, results.md and latency.svg (latency against corpus size,
// log-log). See docs/performance.md.
//
// Exit status: 0 when every measurement ran (whether or not the targets
// were met), 1 when one could not, 2 for a command-line mistake.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := &cli.Command{
		Name:      "adrkit-bench",
		Usage:     "measure adrkit-mcp end to end against the floor of reading and hashing the corpus",
		UsageText: "adrkit-bench [--sizes 100,1000,10000] [--calls K] [--starts R] [--out docs/perf] [--bin adrkit-mcp]",
		Writer:    stdout,
		ErrWriter: stderr,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "sizes", Value: "100,1000,10000", Usage: "corpus sizes (record counts), comma-separated"},
			&cli.IntFlag{Name: "calls", Aliases: []string{"k"}, Value: 50, Usage: "timed round trips per tool (and floor runs) at each size"},
			&cli.IntFlag{Name: "warmup", Value: 3, Usage: "untimed rounds before the timed ones at each size"},
			&cli.IntFlag{Name: "starts", Aliases: []string{"r"}, Value: 20, Usage: "process starts timed to the initialize answer, at each size"},
			&cli.IntFlag{Name: "lint-runs", Value: 5, Usage: "cold `adrkit lint` runs on the largest corpus (0 to skip)"},
			&cli.IntFlag{Name: "startup-runs", Value: 50, Usage: "processes timed for start-up: an empty Go program, adrkit --version and adrkit-mcp --version, each (0 to skip)"},
			&cli.IntFlag{Name: "ask-runs", Value: 30, Usage: "`adrkit ask` processes timed at each size, with as many `adrkit --version`, after the development set is asked (0 to skip both)"},
			&cli.IntFlag{Name: "hook-runs", Value: 30, Usage: "`adrkit hook` processes timed at each size, with as many `adrkit --version` (0 to skip)"},
			&cli.IntFlag{Name: "pipelined", Value: 200, Usage: "tools/call requests written at once to a new server on the largest corpus (0 to skip)"},
			&cli.IntFlag{Name: "lists", Value: 10000, Usage: "tools/list requests, and as many pings, written at once to one server (0 to skip)"},
			&cli.IntFlag{Name: "silent", Value: 1000, Usage: "sockets that send nothing, held open against --http while a token holder calls (0 to skip)"},
			&cli.IntFlag{Name: "slow-bodies", Value: 300, Usage: "slow-body requests to one corpus, held open while another corpus is called (0 to skip)"},
			&cli.IntFlag{Name: "stalled", Value: 256, Usage: "requests stalling a 1 MiB body, held open while the server's peak memory is read (0 to skip)"},
			&cli.IntFlag{Name: "pressure-calls", Value: 20, Usage: "calls timed during each of --silent, --slow-bodies and --stalled"},
			&cli.IntFlag{Name: "term-clients", Value: 20, Usage: "clients calling in a loop when the HTTP server gets SIGTERM (0 to skip)"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "corpus generator seed"},
			&cli.Float64Flag{Name: "broken", Value: 0.01, Usage: "fraction of deliberately broken records"},
			&cli.StringFlag{Name: "out", Value: filepath.Join("docs", "perf"), Usage: "directory for results.json, results.md and latency.svg (\"\" for none)", TakesFile: true},
			&cli.StringFlag{Name: "bin", Usage: "adrkit-mcp binary to measure (default: build ./cmd/adrkit-mcp)", TakesFile: true},
			&cli.StringFlag{Name: "lint-bin", Usage: "adrkit binary for the lint and hook timings (default: build ./cmd/adrkit if it exists)", TakesFile: true},
			&cli.StringFlag{Name: "tmp", Usage: "where to generate the corpora (default: a new temporary directory, removed afterwards)", TakesFile: true},
		},
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{msg: err.Error()}
		},
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Action: func(ctx context.Context, c *cli.Command) error {
			cfg, err := configFrom(c, args)
			if err != nil {
				return err
			}
			return bench(ctx, cfg, stdout, stderr)
		},
	}
	if err := cmd.Run(ctx, args); err != nil {
		var usage usageError
		if errors.As(err, &usage) {
			fmt.Fprintf(stderr, "adrkit-bench: %s\n", usage.msg)
			return 2
		}
		fmt.Fprintf(stderr, "adrkit-bench: %v\n", err)
		return 1
	}
	return 0
}

// Config is one run's settings, recorded with its results.
type Config struct {
	Sizes    []int `json:"sizes"`
	Calls    int   `json:"calls"`
	Warmup   int   `json:"warmup"`
	Starts   int   `json:"starts"`
	LintRuns int   `json:"lintRuns"`
	HookRuns int   `json:"hookRuns"`
	AskRuns  int   `json:"askRuns"`
	// StartupRuns is how many times each program is started for the
	// start-up comparison.
	StartupRuns int `json:"startupRuns"`
	// Pipelined and Lists size the bursts of measureLoad.
	Pipelined int `json:"pipelined"`
	Lists     int `json:"lists"`
	// Silent, SlowBodies, Stalled, PressureCalls and TermClients size the
	// HTTP pressure runs of measurePressure.
	Silent        int     `json:"silent"`
	SlowBodies    int     `json:"slowBodies"`
	Stalled       int     `json:"stalled"`
	PressureCalls int     `json:"pressureCalls"`
	TermClients   int     `json:"termClients"`
	Seed          int64   `json:"seed"`
	Broken        float64 `json:"broken"`

	out, bin, lintBin, tmp string
	// command is the command line, for the record.
	command string
}

func configFrom(c *cli.Command, args []string) (Config, error) {
	cfg := Config{
		Calls: int(c.Int("calls")), Warmup: int(c.Int("warmup")), Starts: int(c.Int("starts")),
		LintRuns: int(c.Int("lint-runs")), Seed: c.Int64("seed"), Broken: c.Float64("broken"),
		HookRuns:    int(c.Int("hook-runs")),
		AskRuns:     int(c.Int("ask-runs")),
		StartupRuns: int(c.Int("startup-runs")),
		Pipelined:   int(c.Int("pipelined")), Lists: int(c.Int("lists")),
		Silent: int(c.Int("silent")), SlowBodies: int(c.Int("slow-bodies")), Stalled: int(c.Int("stalled")),
		PressureCalls: int(c.Int("pressure-calls")), TermClients: int(c.Int("term-clients")),
		out: c.String("out"), bin: c.String("bin"), lintBin: c.String("lint-bin"), tmp: c.String("tmp"),
		command: "go run ./cmd/adrkit-bench " + strings.Join(args[1:], " "),
	}
	for f := range strings.SplitSeq(c.String("sizes"), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return cfg, usageError{msg: fmt.Sprintf("--sizes: %q is not a positive record count", f)}
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	switch {
	case cfg.Calls < 1:
		return cfg, usageError{msg: "--calls must be at least 1"}
	case cfg.Starts < 0 || cfg.Warmup < 0 || cfg.LintRuns < 0 || cfg.Pipelined < 0 || cfg.Lists < 0 || cfg.HookRuns < 0 || cfg.AskRuns < 0 || cfg.StartupRuns < 0:
		return cfg, usageError{msg: "--starts, --warmup, --lint-runs, --pipelined, --lists, --hook-runs, --ask-runs and --startup-runs cannot be negative"}
	case cfg.Silent < 0 || cfg.SlowBodies < 0 || cfg.Stalled < 0 || cfg.TermClients < 0 || cfg.PressureCalls < 1:
		return cfg, usageError{msg: "--silent, --slow-bodies, --stalled and --term-clients cannot be negative, and --pressure-calls must be at least 1"}
	case cfg.Broken < 0 || cfg.Broken > 1:
		return cfg, usageError{msg: "--broken is a fraction between 0 and 1"}
	}
	cfg.command = strings.TrimSpace(cfg.command)
	return cfg, nil
}

// bench runs every measurement and writes the results.
func bench(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	tmp := cfg.tmp
	if tmp == "" {
		d, err := os.MkdirTemp("", "adrkit-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		tmp = d
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "adrkit-bench: "+format+"\n", a...) }

	bin := cfg.bin
	if bin == "" {
		logf("building adrkit-mcp")
		b, err := goBuild(ctx, tmp, "adrkit-mcp", "./cmd/adrkit-mcp")
		if err != nil {
			return fmt.Errorf("%w (or pass --bin)", err)
		}
		bin = b
	}
	lintBin, lintNote := cfg.lintBin, ""
	if lintBin == "" && (cfg.LintRuns > 0 || cfg.HookRuns > 0 || cfg.AskRuns > 0 || cfg.StartupRuns > 0) {
		if _, err := os.Stat(filepath.Join("cmd", "adrkit", "main.go")); err != nil {
			lintNote = "cmd/adrkit does not exist in this tree; lint was not timed"
		} else {
			logf("building adrkit")
			b, err := goBuild(ctx, tmp, "adrkit", "./cmd/adrkit")
			if err != nil {
				lintNote = "building cmd/adrkit failed, so lint was not timed: " + firstLine(err.Error())
			} else {
				lintBin = b
			}
		}
	}
	if lintNote != "" {
		logf("%s", lintNote)
	}

	res := &Results{Command: cfg.command, Config: cfg, Machine: machine()}
	for _, n := range cfg.Sizes {
		if err := ctx.Err(); err != nil {
			return err
		}
		sr, err := measureSize(ctx, cfg, bin, filepath.Join(tmp, "n"+strconv.Itoa(n)), n, logf)
		if err != nil {
			return fmt.Errorf("at %d records: %w", n, err)
		}
		res.Sizes = append(res.Sizes, sr)
	}
	if len(res.Sizes) > 0 && cfg.LintRuns > 0 {
		largest := res.Sizes[len(res.Sizes)-1]
		lr := &LintResult{N: largest.N, Note: lintNote}
		if lintBin != "" {
			logf("timing adrkit lint on %d records", largest.N)
			d, err := timeLint(ctx, lintBin, filepath.Join(tmp, "n"+strconv.Itoa(largest.N)), cfg.LintRuns)
			if err != nil {
				return fmt.Errorf("lint: %w", err)
			}
			lr.Cold = d
			lr.Ratio = ratio(d.Median, largest.Floor.Median)
		}
		res.Lint = lr
	}
	if cfg.StartupRuns > 0 && lintBin != "" {
		sr, err := measureStartup(ctx, lintBin, bin, tmp, cfg.StartupRuns, cfg.Warmup, logf)
		if err != nil {
			return fmt.Errorf("start-up: %w", err)
		}
		res.Startup = sr
	}
	if len(res.Sizes) > 0 && cfg.HookRuns > 0 && lintBin != "" {
		var sizes []int
		for _, sr := range res.Sizes {
			sizes = append(sizes, sr.N)
		}
		hr, err := measureHooks(ctx, lintBin, tmp, sizes, cfg.HookRuns, cfg.Warmup, logf)
		if err != nil {
			return fmt.Errorf("hook: %w", err)
		}
		res.Hooks = hr
	}
	if len(res.Sizes) > 0 && cfg.AskRuns > 0 && lintBin != "" {
		var sizes []int
		for _, sr := range res.Sizes {
			sizes = append(sizes, sr.N)
		}
		ar, err := measureAsk(ctx, lintBin, tmp, sizes, cfg.AskRuns, cfg.Warmup, logf)
		if err != nil {
			return fmt.Errorf("ask: %w", err)
		}
		res.Ask = ar
	}
	if len(res.Sizes) > 0 && (cfg.Pipelined > 0 || cfg.Lists > 0) {
		largest, smallest := res.Sizes[len(res.Sizes)-1].N, res.Sizes[0].N
		lr, err := measureLoad(cfg, bin, filepath.Join(tmp, "n"+strconv.Itoa(largest)), largest,
			filepath.Join(tmp, "n"+strconv.Itoa(smallest)), logf)
		if err != nil {
			return fmt.Errorf("under load: %w", err)
		}
		res.Load = &lr
	}
	if len(res.Sizes) > 0 && (cfg.Silent > 0 || cfg.SlowBodies > 0 || cfg.Stalled > 0 || cfg.TermClients > 0) {
		smallest := res.Sizes[0].N
		pr, err := measurePressure(ctx, cfg, bin, filepath.Join(tmp, "n"+strconv.Itoa(smallest)), smallest, logf)
		if err != nil {
			return fmt.Errorf("HTTP pressure: %w", err)
		}
		res.Pressure = &pr
	}
	res.Machine.LoadEnd = loadAverage()
	res.evaluate()

	table := res.markdown()
	fmt.Fprint(stdout, table)
	if cfg.out == "" {
		return nil
	}
	return res.write(cfg.out, table)
}
