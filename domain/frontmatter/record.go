package frontmatter

import "github.com/adrkit/adrkit-go/domain/adr"

// ParseRecord runs the whole per-file pipeline on a decoded file: split,
// YAML, schema. It returns a record, or nil and at least one finding
// (frontmatter-fence, frontmatter-parse, file-read, or schema findings),
// each carrying path.
func ParseRecord(path, text string) (*adr.Record, []adr.Finding) {
	panic("frontmatter.ParseRecord: not implemented yet")
}
