package audit

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// CSVHeader is the first line of an export: one line per item.
var CSVHeader = []string{"Entry", "When (UTC)", "Client id", "Name", "Seller", "Environment", "Kind", "Reference", "Outcome", "Message",
	"Item", "Product", "Old", "New", "Item outcome", "Item message", "Read-back"}

// CSVWriter streams an export as UTF-8 CSV with a byte order mark, every
// field quoted and defused as the job exports are (bulkjobs.ExportText),
// so an untrusted marketplace message cannot run as a formula.
type CSVWriter struct {
	bw *bufio.Writer
}

// NewCSVWriter starts an export on w with its header.
func NewCSVWriter(w io.Writer) *CSVWriter {
	c := &CSVWriter{bw: bufio.NewWriterSize(w, 32<<10)}
	c.bw.WriteString("\ufeff")
	c.line(CSVHeader)
	return c
}

// Write adds one line: the entry and one of its items.
func (c *CSVWriter) Write(e Entry, it Item) error {
	c.line([]string{strconv.FormatInt(e.ID, 10), e.At.UTC().Format("2006-01-02 15:04:05"), e.ClientID, e.UserName,
		strconv.FormatInt(e.SellerID, 10), e.Environment, KindLabel(e.Kind), e.Ref, e.Outcome, e.Message,
		it.Key, it.Name, it.Old, it.New, it.Outcome, it.Message, it.ReadBack})
	if c.bw.Buffered() > 16<<10 {
		return c.bw.Flush()
	}
	return nil
}

// Incomplete ends an export that could not be read to the end with a line
// that says so, so a cut file is never taken for the whole history.
func (c *CSVWriter) Incomplete() error {
	c.line([]string{"", "", "", "", "", "", "", "", "", "Export incomplete: the history could not be read to the end. Export again."})
	return c.bw.Flush()
}

// Flush writes what is buffered.
func (c *CSVWriter) Flush() error { return c.bw.Flush() }

func (c *CSVWriter) line(fields []string) {
	for i, f := range fields {
		if i > 0 {
			c.bw.WriteByte(',')
		}
		f = bulkjobs.ExportText(f)
		if f == "" {
			continue
		}
		c.bw.WriteByte('"')
		c.bw.WriteString(strings.ReplaceAll(f, `"`, `""`))
		c.bw.WriteByte('"')
	}
	c.bw.WriteByte('\n')
}
