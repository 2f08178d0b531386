// Package secure is HTTP plumbing: the security headers every answer of
// the dashboard carries.
package secure

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// ContentSecurityPolicy allows only the dashboard's own scripts and
// styles: no inline script, no eval, no framing, forms post only to it.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// Headers sets the security headers on h.
func Headers(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// Middleware sets the security headers on every answer Echo gives (the
// outermost handler sets them too, for answers given before Echo runs).
func Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		Headers(c.Response().Header())
		return next(c)
	}
}
