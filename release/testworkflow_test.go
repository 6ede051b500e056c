package release

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// testWorkflow is the part of .github/workflows/test.yml this test holds
// to the promise: both binaries pass their tests on linux, darwin
// and windows, on amd64 and arm64.
type testWorkflow struct {
	Jobs map[string]struct {
		RunsOn   string `json:"runs-on"`
		Strategy struct {
			FailFast *bool `json:"fail-fast"`
			Matrix   struct {
				Include []struct {
					Runner string `json:"runner"`
					GOOS   string `json:"goos"`
					GOARCH string `json:"goarch"`
				} `json:"include"`
			} `json:"matrix"`
		} `json:"strategy"`
		Steps []struct {
			Uses string            `json:"uses"`
			With map[string]string `json:"with"`
			Run  string            `json:"run"`
		} `json:"steps"`
	} `json:"jobs"`
}

func TestTestWorkflow(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(top, ".github", "workflows", "test.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var w testWorkflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatal(err)
	}
	job, ok := w.Jobs["test"]
	if !ok || len(w.Jobs) != 1 {
		t.Fatalf("jobs %v, want one, test", slices.Sorted(maps.Keys(w.Jobs)))
	}
	if job.RunsOn != "${{ matrix.runner }}" {
		t.Errorf("runs-on %q, want the matrix's runner", job.RunsOn)
	}
	if job.Strategy.FailFast == nil || *job.Strategy.FailFast {
		t.Error("fail-fast is not false: one target's failure would hide the others'")
	}
	var targets, runners []string
	for _, in := range job.Strategy.Matrix.Include {
		targets = append(targets, in.GOOS+"/"+in.GOARCH)
		runners = append(runners, in.Runner)
	}
	slices.Sort(targets)
	want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}
	if !slices.Equal(targets, want) {
		t.Errorf("targets %v, want %v", targets, want)
	}
	if slices.Sort(runners); len(slices.Compact(runners)) != len(want) {
		t.Errorf("runners %v: each target needs a runner of its own", runners)
	}

	// The steps: check out, set up the go.mod's Go, check that the runner
	// is the target, then the README's test command.
	var uses, runs []string
	for _, s := range job.Steps {
		if s.Uses != "" {
			uses = append(uses, strings.SplitN(s.Uses, "@", 2)[0])
			if strings.HasPrefix(s.Uses, "actions/setup-go@") && s.With["go-version-file"] != "go.mod" {
				t.Errorf("setup-go with %v, want go-version-file: go.mod", s.With)
			}
		}
		if s.Run != "" {
			runs = append(runs, strings.TrimSpace(s.Run))
		}
	}
	if !slices.Equal(uses, []string{"actions/checkout", "actions/setup-go"}) {
		t.Errorf("actions %v, want checkout and setup-go", uses)
	}
	readme, err := os.ReadFile(filepath.Join(top, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?m)^(go test [^#\n]*?)\\s+# the whole test suite$").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md names no test command (a line `go test ...  # the whole test suite`)")
	}
	check := `test "$(go env GOOS)/$(go env GOARCH)" = "${{ matrix.goos }}/${{ matrix.goarch }}"`
	if !slices.Equal(runs, []string{check, string(m[1])}) {
		t.Errorf("steps run %q, want the target check, then the README's %q", runs, m[1])
	}
}
