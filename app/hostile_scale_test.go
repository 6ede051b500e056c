package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/adrkit/adrkit-go/adapters/filesystem"
	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/internal/corpusgen"
)

// scaleRecords is the size of the large corpus: 10,000 record files,
// 1% of them broken in the five ways corpusgen knows (some over the
// size cap), three superseded records pointing into another log.
const scaleRecords = 10000

var scaleConfig = corpusgen.Config{N: scaleRecords, Seed: 6, Broken: 0.01, Federated: 3}

// scaleCallBudget bounds the heap one tool call over the large corpus
// may allocate, and scaleAnswerBudget the size of one encoded answer:
// pages keep answers small however large the corpus is.
// docs/reliability.md records the measured figures.
const (
	scaleCallBudget   = 256 << 20
	scaleAnswerBudget = 256 << 10
)

// TestHostileTenThousandRecords projects and queries a corpus of 10,000
// records on disk: the counts are exactly what the generator predicts,
// every tool answers, every answer is one page (20 items by default, 100
// at most) and stays small, and following cursors never repeats an item.
// The first projection parses everything (about five seconds on two
// cores); later calls reuse the parses, so the test stays cheap.
func TestHostileTenThousandRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,000 files")
	}
	root := t.TempDir()
	start := time.Now()
	if _, _, err := corpusgen.WriteRepo(root, scaleConfig); err != nil {
		t.Fatalf("writing the large corpus: %v", err)
	}
	wrote := time.Since(start)
	st := corpusgen.New(scaleConfig).Stats
	s := app.New(filesystem.New(root, "docs/adr"), app.Options{})

	start = time.Now()
	first := hostileProject(t, s)
	t.Logf("writing %d records took %v, the first projection %v", scaleRecords, wrote, time.Since(start))
	if first.RecordCount != st.Valid || first.ExcludedCount != st.Broken || len(first.Findings) != st.Findings {
		t.Errorf("counts %d/%d, %d findings; want %d/%d, %d", first.RecordCount, first.ExcludedCount, len(first.Findings), st.Valid, st.Broken, st.Findings)
	}

	for _, c := range corpusgen.Workload(scaleRecords) {
		var res app.Result
		var err error
		heap := heapAllocated(func() { res, err = s.Call(context.Background(), c.Tool, c.Args) })
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", c.Tool, err, res.Text)
		}
		raw, err := json.Marshal(res.Structured)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s over %d records: %d bytes allocated, answer %d bytes", c.Tool, scaleRecords, heap, len(raw))
		if heap > scaleCallBudget {
			t.Errorf("%s allocated %d bytes, more than %d", c.Tool, heap, scaleCallBudget)
		}
		if len(raw) > scaleAnswerBudget {
			t.Errorf("%s answered %d bytes, more than %d", c.Tool, len(raw), scaleAnswerBudget)
		}
	}

	// The largest page, then the page its cursor leads to: full pages,
	// no record twice.
	seen := map[string]bool{}
	args := `{"limit":100}`
	for page := 0; page < 2; page++ {
		result := hostileCall(t, s, app.ToolListSuperseded, args)["result"].(map[string]any)
		items, _ := result["items"].([]any)
		if result["outcome"] != "entries" || len(items) != 100 {
			t.Fatalf("page %d: %v with %d items, want 100", page, result["outcome"], len(items))
		}
		for _, it := range items {
			id := it.(map[string]any)["id"].(string)
			if seen[id] {
				t.Fatalf("%s listed twice", id)
			}
			seen[id] = true
		}
		next, _ := result["cursor"].(string)
		if next == "" {
			t.Fatalf("no cursor after page %d of %d superseded records", page, st.ByStatus["superseded"])
		}
		args = fmt.Sprintf(`{"limit":100,"cursor":%q}`, next)
	}
}
