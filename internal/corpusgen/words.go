package corpusgen

// The word pools. Changing any of them changes every generated corpus,
// so benchmark figures are only comparable between runs of one version.

var verbs = []string{
	"Adopt", "Use", "Replace", "Retire", "Standardise on", "Introduce", "Keep", "Move to",
	"Pilot", "Drop", "Consolidate on", "Evaluate",
}

var techs = []string{
	"PostgreSQL", "Kafka", "gRPC", "GraphQL", "Redis", "OpenTelemetry", "Terraform", "Kubernetes",
	"feature flags", "event sourcing", "CQRS", "a service mesh", "SQLite", "S3-compatible storage",
	"OAuth 2.1", "WebAssembly", "Protocol Buffers", "a monorepo", "trunk-based development",
	"contract tests", "blue-green deploys", "rate limiting", "idempotency keys", "outbox tables",
}

var concerns = []string{
	"storage", "messaging", "observability", "authentication", "deployment", "caching", "search",
	"billing events", "audit logs", "configuration", "schema migrations", "background jobs",
	"API versioning", "secrets", "reporting", "mobile sync",
}

var services = []string{
	"payments", "ledger", "billing", "checkout", "identity", "catalog", "search", "notifications",
	"inventory", "shipping", "reporting", "gateway", "accounts", "pricing", "fraud", "onboarding",
	"analytics", "support", "media", "scheduler", "audit", "webhooks", "export", "admin",
}

var areas = []string{
	"api", "store", "worker", "cmd", "internal", "client", "events", "migrations", "jobs", "config",
	"checkout", "cart", "auth", "dashboard",
}

var domains = []string{"commerce", "platform", "finance", "growth", "trust-and-safety", "data"}

var tagPool = []string{
	"storage", "database", "postgres", "kafka", "messaging", "api", "grpc", "security", "auth",
	"observability", "ci", "deployment", "frontend", "mobile", "performance", "cost", "compliance",
	"testing", "infra", "data", "ml", "caching", "search", "process",
}

var people = []string{
	"@alice", "@bob", "@chen", "@dana", "@emeka", "@farah", "@gus", "team:platform", "team:payments",
	"team:sre", "erin@example.com", "li.wei@example.org",
}

// pathPatterns are affects globs; {svc} and {area} are filled in.
var pathPatterns = []string{
	"services/{svc}/**",
	"services/{svc}/{area}/**/*.go",
	"services/{svc}/{area}/*.go",
	"web/src/{area}/**/*.{ts,tsx}",
	"infra/terraform/{svc}/*.tf",
	"proto/{svc}/v1/*.proto",
	"**/*.proto",
	"docs/runbooks/{svc}.md",
	"services/*/{area}/**",
	"libs/{area}/**/*_test.go",
	"deploy/{svc}/**/*.y?(a)ml",
	"services/{svc}/[a-m]*/**",
}

// packages are valid package matchers (name, or name@semver range).
var packages = []string{
	"lodash@^4.17.21", "@acme/payments-client@>=2.0.0 <3.0.0", "react@18.x", "left-pad",
	"express@~4.19.0", "@opentelemetry/api@^1.9.0",
}

// vocabulary is the prose of bodies.
var vocabulary = []string{
	"the", "service", "needs", "a", "durable", "store", "for", "events", "and", "we", "expect",
	"traffic", "to", "grow", "tenfold", "within", "two", "quarters", "latency", "budget", "is",
	"tight", "on", "checkout", "path", "so", "every", "extra", "hop", "matters", "team", "already",
	"operates", "this", "stack", "in", "production", "which", "keeps", "on-call", "load", "low",
	"migration", "happens", "behind", "flag", "with", "rollback", "plan", "documented", "runbook",
	"consumers", "must", "tolerate", "duplicates", "ordering", "guarantees", "are", "per", "partition",
	"only", "schema", "changes", "go", "through", "review", "compatibility", "checks", "run", "CI",
	"cost", "stays", "below", "current", "spend", "once", "old", "cluster", "retired", "data",
	"retention", "follows", "policy", "encryption", "at", "rest", "transit", "mandatory", "access",
	"granted", "by", "role", "not", "user", "alternatives", "were", "considered", "rejected",
	"because", "of", "operational", "complexity", "vendor", "lock-in", "risk", "benchmarks", "show",
	"headroom", "peak", "load", "owners", "revisit", "decision", "when", "assumptions", "change",
}
