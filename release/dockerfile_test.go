package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction: its keyword, upper-case, and
// the rest of its (joined) lines.
type instruction struct {
	keyword, args string
}

// stage is the instructions from one FROM to the next.
type stage struct {
	from         string // the image, without AS or --platform
	instructions []instruction
}

// parseDockerfile reads the repository's Dockerfile into stages, joining
// continued lines and dropping comments: enough of the syntax for the
// plain file we keep, which the tests below hold to it.
func parseDockerfile(t *testing.T) []stage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(top, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var stages []stage
	var cont strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if cont.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cont.WriteString(strings.TrimSuffix(trimmed, "\\") + " ")
			continue
		}
		cont.WriteString(trimmed)
		full := cont.String()
		cont.Reset()
		keyword, args, _ := strings.Cut(full, " ")
		in := instruction{keyword: strings.ToUpper(keyword), args: strings.TrimSpace(args)}
		if in.keyword == "FROM" {
			var image string
			for _, f := range strings.Fields(in.args) {
				if !strings.HasPrefix(f, "--") {
					image = f
					break
				}
			}
			stages = append(stages, stage{from: image})
			continue
		}
		if len(stages) == 0 {
			if in.keyword != "ARG" {
				t.Fatalf("Dockerfile: %s before the first FROM", in.keyword)
			}
			continue
		}
		stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, in)
	}
	if len(stages) < 2 {
		t.Fatalf("Dockerfile has %d stages, want a build stage and a runtime stage", len(stages))
	}
	return stages
}

// all returns the arguments of every instruction of the stage with the
// keyword.
func (s stage) all(keyword string) []string {
	var out []string
	for _, in := range s.instructions {
		if in.keyword == keyword {
			out = append(out, in.args)
		}
	}
	return out
}

// dockerfileLabel is the value of the runtime image's label key.
func dockerfileLabel(t *testing.T, key string) string {
	t.Helper()
	stages := parseDockerfile(t)
	for _, args := range stages[len(stages)-1].all("LABEL") {
		rest := args
		for rest != "" {
			rest = strings.TrimSpace(rest)
			k, after, ok := strings.Cut(rest, "=")
			if !ok {
				break
			}
			var v string
			if strings.HasPrefix(after, `"`) {
				end := strings.Index(after[1:], `"`)
				if end < 0 {
					t.Fatalf("Dockerfile: unterminated label value in %q", args)
				}
				v, rest = after[1:1+end], after[2+end:]
			} else {
				v, rest, _ = strings.Cut(after, " ")
			}
			if k == key {
				return v
			}
		}
	}
	return ""
}
