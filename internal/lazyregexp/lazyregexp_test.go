package lazyregexp

import (
	"sync"
	"testing"
)

func TestCompilesOnFirstUse(t *testing.T) {
	// An invalid pattern must not panic when declared: that is the whole
	// point (declaration happens at start-up). It panics when used.
	bad := New(`(`)
	if got := bad.String(); got != `(` {
		t.Fatalf("String() = %q, want the pattern", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("using an invalid pattern did not panic")
		}
	}()
	bad.MatchString("x")
}

func TestForwards(t *testing.T) {
	re := New(`(?P<num>[0-9]+)-([a-z]+)`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !re.MatchString("12-ab") {
				t.Error("MatchString")
			}
		}()
	}
	wg.Wait()
	cases := []struct {
		name      string
		got, want any
	}{
		{"FindStringSubmatch", re.FindStringSubmatch("3-a")[2], "a"},
		{"FindAllStringSubmatch", len(re.FindAllStringSubmatch("1-a 2-b", -1)), 2},
		{"FindAllStringSubmatchIndex", len(re.FindAllStringSubmatchIndex("1-a 2-b", -1)), 2},
		{"ReplaceAllString", re.ReplaceAllString("1-a", "$2"), "a"},
		{"Split", len(re.Split("x1-ay", -1)), 2},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
