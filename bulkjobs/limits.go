package bulkjobs

import (
	"errors"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// LimitError is a file refused for going past one of the limits of
// sheets.Read. Its message is meant for the seller, read in the seller's
// language with Words; Error is the English.
type LimitError struct {
	Msgs i18n.Msgs
}

func (e *LimitError) Error() string { return e.Msgs.String() }

// limitf is a LimitError saying the message key with args.
func limitf(key string, args map[string]any) error {
	return &LimitError{Msgs: i18n.Of(i18n.Msg{Key: key, Args: args})}
}

// fileErr is a file that cannot be read, in words for the seller.
func fileErr(key string) error { return &i18n.Error{Msgs: i18n.Of(i18n.Msg{Key: key})} }

// refusal is a refusal of sheets.Read in the seller's words: a LimitError,
// an *i18n.Error or a Problem naming the row. Any other error is kept as is.
func refusal(err error) error {
	var le *sheets.LimitError
	var re *sheets.ReadError
	switch {
	case errors.As(err, &le):
		return limitWords(le)
	case errors.As(err, &re):
		switch re.Reason {
		case sheets.ReasonNotUTF8:
			return fileErr(i18n.K("import.err_not_utf8"))
		case sheets.ReasonXLSXOpen:
			return fileErr(i18n.K("import.err_xlsx_open"))
		case sheets.ReasonXLSXDamaged:
			return fileErr(i18n.K("import.err_xlsx_damaged"))
		case sheets.ReasonNoSheet:
			return fileErr(i18n.K("import.err_no_sheet"))
		case sheets.ReasonSheetRead:
			return fileErr(i18n.K("import.err_sheet_read"))
		case sheets.ReasonRowRead:
			return Problem{Row: re.Row, Text: i18n.Of(i18n.M("import.err_row_read", nil))}
		case sheets.ReasonCSVRow:
			return Problem{Row: re.Row, Text: i18n.Of(i18n.M("import.err_csv_row", map[string]any{"Error": re.Detail}))}
		case sheets.ReasonEmpty:
			return fileErr(i18n.K("import.err_empty"))
		}
	}
	return err
}

// limitWords says which limit a file passed.
func limitWords(le *sheets.LimitError) error {
	switch le.Limit {
	case sheets.LimitUnpacked:
		return limitf(i18n.K("import.err_unpacked"), map[string]any{"MB": le.Max >> 20})
	case sheets.LimitZipEntries:
		return limitf(i18n.K("import.err_zip_entries"), map[string]any{"Max": le.Max})
	case sheets.LimitRatio:
		return limitf(i18n.K("import.err_ratio"), map[string]any{"Max": le.Max})
	case sheets.LimitPartLies:
		return limitf(i18n.K("import.err_part_lies"), nil)
	case sheets.LimitCellChars:
		if le.Cell == "" {
			return limitf(i18n.K("import.err_a_cell_long"), map[string]any{"Max": le.Max})
		}
		return limitf(i18n.K("import.err_cell_long"), map[string]any{"Cell": le.Cell, "Max": le.Max})
	case sheets.LimitTagBytes:
		return limitf(i18n.K("import.err_tag_long"), map[string]any{"KB": le.Max >> 10})
	case sheets.LimitWholePart:
		return limitf(i18n.K("import.err_whole_part"), map[string]any{"Max": le.Max})
	case sheets.LimitRowElements:
		return limitf(i18n.K("import.err_row_elements"), map[string]any{"Max": le.Max})
	case sheets.LimitColumns:
		return limitf(i18n.K("import.err_columns"), map[string]any{"Row": le.Row, "Max": le.Max})
	case sheets.LimitEmptyRun:
		return limitf(i18n.K("import.err_empty_run"), map[string]any{"Max": le.Max, "Row": le.Row})
	case sheets.LimitEmptyRows:
		return limitf(i18n.K("import.err_empties"), map[string]any{"Max": le.Max, "Row": le.Row})
	case sheets.LimitRows:
		return limitf(i18n.K("import.err_rows"), map[string]any{"Max": le.Max})
	case sheets.LimitDeadline:
		return limitf(i18n.K("import.err_too_long"), nil)
	}
	return le
}

// Words is why a file was refused (an error of ReadTable, a Problem of
// MapColumns) in language l; an error of another kind as its text.
func Words(l i18n.Lang, err error) string {
	var le *LimitError
	var p Problem
	switch {
	case errors.As(err, &le):
		return le.Msgs.In(l, nil)
	case i18n.MsgsOf(err) != nil:
		return i18n.MsgsOf(err).In(l, nil)
	case errors.As(err, &p):
		return p.In(l)
	}
	return err.Error()
}
