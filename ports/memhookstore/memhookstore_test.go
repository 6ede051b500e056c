package memhookstore_test

import (
	"testing"

	"github.com/adrkit/adrkit-go/ports"
	"github.com/adrkit/adrkit-go/ports/hookstoretest"
	"github.com/adrkit/adrkit-go/ports/memhookstore"
)

func TestConformance(t *testing.T) {
	hookstoretest.Run(t, func(*testing.T) ports.HookStore { return &memhookstore.Store{} })
}
