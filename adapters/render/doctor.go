package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/adrkit/adrkit-go/app"
)

// WriteDoctor prints the doctor's checks, one a line with what to do
// under each problem, and a closing count.
func WriteDoctor(w io.Writer, rep *app.DoctorReport, st Style) error {
	var b strings.Builder
	for _, c := range rep.Checks {
		label := fmt.Sprintf("%-8s", c.Status)
		switch c.Status {
		case app.CheckOK:
			label = st.Good(label)
		case app.CheckProblem:
			label = st.Bad(label)
		default:
			label = st.Dim(label)
		}
		b.WriteString(label + " " + c.Subject + ": " + c.Detail + "\n")
		if c.Fix != "" {
			b.WriteString("         fix: " + c.Fix + "\n")
		}
	}
	switch n := rep.Problems(); n {
	case 0:
		b.WriteString("\nNo problems found.\n")
	case 1:
		b.WriteString("\n1 problem found.\n")
	default:
		b.WriteString(fmt.Sprintf("\n%d problems found.\n", n))
	}
	return writeString(w, b.String())
}
