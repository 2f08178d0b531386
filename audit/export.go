package audit

import (
	"io"
	"strconv"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// CSVHeader is the first line of an export: one line per item.
var CSVHeader = []string{"Entry", "When (UTC)", "Client id", "Name", "Seller", "Environment", "Kind", "Reference", "Outcome", "Message",
	"Item", "Product", "Old", "New", "Item outcome", "Item message", "Read-back"}

// CSVWriter streams an export as CSV through sheets, as every export of
// the dashboard is written: the entry and seller ids as numbers, the rest
// as text (cleaned, bounded and defused, so an untrusted marketplace
// message cannot run as a formula).
type CSVWriter struct {
	w    *sheets.Writer
	text CSVText
}

// CSVText is the words of an export in the reader's language: the header
// (one name per column of CSVHeader), the label of each kind of change, and
// the last line of an export cut short. Cells of marketplace data are
// written as sent.
type CSVText struct {
	Header     []string
	Kind       func(kind string) string
	Incomplete string
	// Text, when set, reads a recorded message (a message, an old or new
	// value, a read-back) in the reader's language; without it, English.
	Text func(i18n.Msgs) string
	// Env and Outcome, when set, label an environment and an outcome (of
	// an entry or an item) in the reader's language; without them, the
	// codes as recorded.
	Env, Outcome func(code string) string
}

// englishCSV is the export in English, as NewCSVWriter writes it.
var englishCSV = CSVText{Header: CSVHeader, Kind: KindLabel,
	Incomplete: "Export incomplete: the history could not be read to the end. Export again."}

// NewCSVWriter starts an export on w with its English header.
func NewCSVWriter(w io.Writer) *CSVWriter { return NewCSVWriterIn(w, englishCSV) }

// NewCSVWriterIn starts an export on w with the words of text; a header of
// the wrong length or a missing kind labeller or last line falls back to
// English.
func NewCSVWriterIn(w io.Writer, text CSVText) *CSVWriter {
	if len(text.Header) != len(CSVHeader) {
		text.Header = CSVHeader
	}
	if text.Kind == nil {
		text.Kind = KindLabel
	}
	if text.Incomplete == "" {
		text.Incomplete = englishCSV.Incomplete
	}
	cols := sheets.Columns(text.Header...)
	cols[0].Kind, cols[4].Kind = sheets.Number, sheets.Number // entry, seller
	sw := sheets.NewCSV(w)
	sw.Header(cols) // a write error is kept and returned by the next call
	return &CSVWriter{w: sw, text: text}
}

// Write adds one line: the entry and one of its items.
func (c *CSVWriter) Write(e Entry, it Item) error {
	text := c.text.Text
	if text == nil {
		text = i18n.Msgs.String
	}
	env, outcome := c.text.Env, c.text.Outcome
	if env == nil {
		env = asRecorded
	}
	if outcome == nil {
		outcome = asRecorded
	}
	itemOutcome := ""
	if it.Outcome != "" {
		itemOutcome = outcome(it.Outcome)
	}
	return c.w.Row(strconv.FormatInt(e.ID, 10), e.At.UTC().Format("2006-01-02 15:04:05"), e.ClientID, e.UserName,
		strconv.FormatInt(e.SellerID, 10), env(e.Environment), c.text.Kind(e.Kind), e.Ref, outcome(e.Outcome), text(e.Message),
		it.Key, it.Name, text(it.Old), text(it.New), itemOutcome, text(it.Message), text(it.ReadBack))
}

func asRecorded(code string) string { return code }

// Incomplete ends an export that could not be read to the end with a line
// that says so, so a cut file is never taken for the whole history.
func (c *CSVWriter) Incomplete() error {
	if err := c.w.Row("", "", "", "", "", "", "", "", "", c.text.Incomplete); err != nil {
		return err
	}
	return c.w.Flush()
}

// Flush writes what is buffered.
func (c *CSVWriter) Flush() error { return c.w.Flush() }
