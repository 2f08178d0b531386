package bulkjobs

import (
	"errors"
	"io"
	"mime/multipart"
)

// ErrTooLarge is an uploaded file beyond the size an import reads.
var ErrTooLarge = errors.New("bulkjobs: the file is too large")

// ReadUpload reads an uploaded file of at most limit bytes: ErrTooLarge
// beyond, by its declared size or by what it holds; another error when
// it cannot be opened or read.
func ReadUpload(fh *multipart.FileHeader, limit int64) ([]byte, error) {
	if fh.Size > limit {
		return nil, ErrTooLarge
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		return nil, ErrTooLarge
	}
	return data, err
}
