package bulkjobs

import (
	"bytes"
	"errors"
	"mime/multipart"
	"testing"
)

// upload is a multipart form's file of content, its declared size size.
func upload(t *testing.T, content string, size int64) *multipart.FileHeader {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, _ := w.CreateFormFile("file", "a.csv")
	fw.Write([]byte(content))
	w.Close()
	form, err := multipart.NewReader(&b, w.Boundary()).ReadForm(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	fh := form.File["file"][0]
	fh.Size = size
	return fh
}

// TestReadUpload: a file within the limit is read whole; one beyond it
// is refused by its declared size, and by its content when the declared
// size understates it.
func TestReadUpload(t *testing.T) {
	if data, err := ReadUpload(upload(t, "sku;price", 9), 9); err != nil || string(data) != "sku;price" {
		t.Fatalf("within: %q, %v", data, err)
	}
	if _, err := ReadUpload(upload(t, "sku", 10), 9); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("declared: %v", err)
	}
	if _, err := ReadUpload(upload(t, "sku;price;sale", 3), 9); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("content: %v", err)
	}
}
