// Package static embeds the dashboard's stylesheet, script and vendored
// libraries and serves them with cache-busting URLs, compressed once (gzip,
// best level, when the process first serves them) and validated: every
// answer carries a strong ETag, the hash of the bytes it sends, and a
// matching If-None-Match is a 304 with no body.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/httpzip"
)

//go:embed app.css app.js favicon.svg vendor
var files embed.FS

// Names of the assets pages link to.
const (
	CSS  = "app.css"
	JS   = "app.js"
	HTMX = "vendor/htmx-2.0.11.min.js"
	Icon = "favicon.svg"
)

// Favicon answers /favicon.ico, which browsers ask for on every site
// whatever the page links: the icon, cacheable for a day, revalidated by
// its ETag after that.
func Favicon() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := loadAssets()[Icon]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=86400")
		a.serve(w, r)
	})
}

// Prefix is the URL path under which Handler serves the assets.
const Prefix = "/static/"

var versions = hashAll()

func hashAll() map[string]string {
	out := map[string]string{}
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[p] = hex.EncodeToString(sum[:6])
		return nil
	})
	return out
}

// Path returns the URL of an embedded asset with its content hash in the
// query, so a changed file gets a new URL and an unchanged one can be cached
// for a year.
func Path(name string) string {
	return Prefix + name + "?v=" + versions[name]
}

// types are the assets' media types, named here rather than read from the
// system's table (a distroless image has none).
var types = map[string]string{
	".css": "text/css; charset=utf-8",
	".js":  "text/javascript; charset=utf-8",
	".svg": "image/svg+xml",
	".txt": "text/plain; charset=utf-8",
}

// representation is one form of an asset's bytes with its validator.
type representation struct {
	body []byte
	etag string
}

// asset is an embedded file as served: as it is, and gzipped when that is
// smaller.
type asset struct {
	contentType string
	identity    representation
	gzip        *representation
}

// loadAssets reads and compresses every asset, once per process: the bytes
// are the binary's own and never change while it runs.
var loadAssets = sync.OnceValue(func() map[string]*asset {
	out := map[string]*asset{}
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		a := &asset{contentType: types[path.Ext(p)], identity: representation{body: b, etag: etagOf(b)}}
		if a.contentType == "" {
			a.contentType = "application/octet-stream"
		}
		if z := gzipped(b); len(z) < len(b) {
			a.gzip = &representation{body: z, etag: etagOf(z)}
		}
		out[p] = a
		return nil
	})
	return out
})

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// etagOf is a strong validator of exactly these bytes: each representation
// has its own, as a strong ETag must (a byte range of one is not a range of
// the other).
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// serve writes the representation the client accepts, or a 304 when its
// If-None-Match names it (http.ServeContent: lists, weak comparison, "*",
// byte ranges and HEAD included).
func (a *asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	rep := &a.identity
	if a.gzip != nil {
		h.Add("Vary", "Accept-Encoding")
		if httpzip.AcceptsGzip(r.Header.Get("Accept-Encoding")) {
			rep = a.gzip
			h.Set("Content-Encoding", "gzip")
			// ServeContent leaves the length out once an encoding is set
			// (for wrappers compressing on the fly); these bytes are final.
			h.Set("Content-Length", strconv.Itoa(len(rep.body)))
		}
	}
	h.Set("Content-Type", a.contentType)
	h.Set("ETag", rep.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(rep.body))
}

// Handler serves the embedded assets below Prefix. A request carrying the
// current content hash is cacheable for a year; any other gets a short
// lifetime so a stale link never pins an old file.
func Handler() http.Handler {
	assets := loadAssets()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), Prefix)
		a, ok := assets[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("v") == versions[name] {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		a.serve(w, r)
	})
}
