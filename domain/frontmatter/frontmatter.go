// Package frontmatter turns one ADR file's text into a record or into
// findings: fence extraction, YAML, and the strict frontmatter schema.
package frontmatter
