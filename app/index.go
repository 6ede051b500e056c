package app

import (
	"context"

	"github.com/adrkit/adrkit-go/domain/index"
)

// Index returns text (a file's current content, "" for a new file) with
// the index of the corpus's valid records between the index markers,
// appended at the end when there are none, and links relative to dir,
// the file's directory (repository-relative, "/"-separated). It reads the
// corpus as lint does; text outside the markers is returned unchanged.
func (s *Service) Index(ctx context.Context, dir, text string) (string, error) {
	p, err := s.Project(ctx)
	if err != nil {
		return "", err
	}
	return index.Splice(text, index.Block(p.Records, p.ByID, dir, index.Newline(text)))
}
