package affects

import "testing"

func TestNearest(t *testing.T) {
	files := []string{
		"services/orders/db.go", "services/orders/api.go", "services/payments/ledger.go",
		"web/src/App.tsx", ".github/workflows/ci.yml", "README.md",
	}
	cases := []struct{ pattern, want string }{
		{"servics/**", "services/**"},
		{"Services/Orders/*.go", "services/orders/*.go"},
		{"services/order/**", "services/orders/**"},
		{"services/orders/db.og", "services/orders/db.go"},
		{".gthub/workflows/*.yml", ".github/workflows/*.yml"},
		{"web/src/app.tsx", "web/src/App.tsx"},
		// Nothing near enough, or the literal part is right and the glob
		// is what matches nothing: no suggestion.
		{"billing/**", ""},
		{"services/orders/*.rs", ""},
		{"**/servics/*.go", ""},
		{"svc/**", ""},
		// The corrected directory exists, but the rest still matches
		// nothing.
		{"servics/orders/*.rs", ""},
	}
	for _, tc := range cases {
		if got := Nearest(tc.pattern, files, nil); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"servics", "services", 1}, {"kitten", "sitting", 3}, {"db.og", "db.go", 1}, {"é", "e", 1}, {"abc", "", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
