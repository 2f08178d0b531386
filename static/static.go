// Package static embeds the dashboard's stylesheet, script and vendored
// libraries and serves them with cache-busting URLs.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
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
// whatever the page links: the icon, cacheable for a day.
func Favicon() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := files.ReadFile(Icon)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		_, _ = w.Write(b)
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

// Handler serves the embedded assets below Prefix. A request carrying the
// current content hash is cacheable for a year; any other gets a short
// lifetime so a stale link never pins an old file.
func Handler() http.Handler {
	fileServer := http.StripPrefix(Prefix, http.FileServerFS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), Prefix)
		v, ok := versions[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("v") == v {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=300")
		}
		fileServer.ServeHTTP(w, r)
	})
}
