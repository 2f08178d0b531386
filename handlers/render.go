package handlers

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render writes a page, or its fragment for htmx requests, with status. The
// output is buffered first, so the session is saved (cookie headers) and a
// rendering error still becomes a proper error page. Pass a nil fragment
// for pages without one.
func (a *App) render(c echo.Context, status int, page, fragment templ.Component) error {
	r := c.Request()
	c.Response().Header().Add("Vary", "HX-Request")
	comp := page
	if fragment != nil && wantsFragment(r) {
		comp = fragment
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 4<<20 {
			bufPool.Put(buf)
		}
	}()
	err := comp.Render(r.Context(), buf)
	// The page is in memory: saving the session (the writer) and the
	// client taking the answer happen outside the local gate.
	a.leaveLocal(c)
	if err != nil {
		return err
	}
	if err := a.saveSession(c); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(status)
	_, err = c.Response().Write(buf.Bytes())
	return err
}

// renderList writes a list page with status 200: to a live search
// (wantsResults) its answer alone (the results and what follows the search,
// pages.NomenclatureAnswer and the like), else the page, or its form's
// fragment, as render decides. The answer varies on HX-Target as well as
// HX-Request.
func (a *App) renderList(c echo.Context, page, form, answer templ.Component) error {
	c.Response().Header().Add("Vary", "HX-Target")
	if wantsResults(c.Request()) {
		return a.render(c, http.StatusOK, answer, nil)
	}
	return a.render(c, http.StatusOK, page, form)
}
