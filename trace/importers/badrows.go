package importers

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// WriteCSV writes every kept example of every reason to path (bad-rows.csv), one row each:
// reason, effect, rows under the reason, file, line, column, value (empty when the example
// has none) and the message.
func (b *BadRows) WriteCSV(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"reason", "effect", "rows", "file", "line", "column", "value", "message"})
		for _, r := range b.Reasons {
			for _, e := range r.Samples {
				value := ""
				if e.HasValue {
					value = e.Value
				}
				cw.Write([]string{r.Reason, string(r.Effect), strconv.FormatInt(r.Rows, 10), e.File, strconv.Itoa(e.Line), e.Column, value, e.Error()})
			}
		}
		cw.Flush() // a failed Write shows in Error
		return cw.Error()
	})
}
