package action_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestActionFiles: both actions' files are YAML whose steps use exactly
// the inputs they declare, and whose scripts exist.
func TestActionFiles(t *testing.T) {
	uses := regexp.MustCompile(`\$\{\{\s*inputs\.([a-z-]+)\s*\}\}`)
	for file, script := range map[string]string{
		filepath.Join("..", "..", "action.yml"):          "check.sh",
		filepath.Join("..", "..", "queue", "action.yml"): "queue.sh",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Inputs map[string]struct {
				Description string `json:"description"`
			} `json:"inputs"`
			Runs struct {
				Using string           `json:"using"`
				Steps []map[string]any `json:"steps"`
			} `json:"runs"`
		}
		if err := yaml.Unmarshal(data, &a); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
			t.Errorf("%s: not a composite action with steps", file)
		}
		var declared, used []string
		for name, in := range a.Inputs {
			declared = append(declared, name)
			if in.Description == "" {
				t.Errorf("%s: input %s has no description", file, name)
			}
		}
		for _, m := range uses.FindAllStringSubmatch(string(data), -1) {
			if !slices.Contains(used, m[1]) {
				used = append(used, m[1])
			}
		}
		slices.Sort(declared)
		slices.Sort(used)
		if !slices.Equal(declared, used) {
			t.Errorf("%s: declares inputs %v, its steps use %v", file, declared, used)
		}
		if _, err := os.Stat(script); err != nil {
			t.Errorf("%s: its script: %v", file, err)
		}
	}
}
