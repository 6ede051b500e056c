package app

// LookupLintRule returns the rule with id, if Lint can emit it.
func LookupLintRule(id string) (LintRule, bool) {
	for _, r := range lintRules {
		if r.ID == id {
			return r, true
		}
	}
	return LintRule{}, false
}
