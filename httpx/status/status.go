// Package status is HTTP plumbing: the statuses the dashboard answers
// with itself, named in the reader's language, and the seconds a
// Retry-After gives.
package status

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// titles are the catalogue keys of the titles of the statuses the
// dashboard answers with itself; another shows as its standard text.
var titles = map[int]string{
	http.StatusBadRequest:            i18n.K("error.status.400"),
	http.StatusUnauthorized:          i18n.K("error.status.401"),
	http.StatusForbidden:             i18n.K("error.status.403"),
	http.StatusMethodNotAllowed:      i18n.K("error.status.405"),
	http.StatusRequestTimeout:        i18n.K("error.status.408"),
	http.StatusRequestEntityTooLarge: i18n.K("error.status.413"),
	http.StatusUnsupportedMediaType:  i18n.K("error.status.415"),
	http.StatusUnprocessableEntity:   i18n.K("error.status.422"),
	http.StatusTooManyRequests:       i18n.K("error.status.429"),
	http.StatusInternalServerError:   i18n.K("error.status.500"),
	http.StatusBadGateway:            i18n.K("error.status.502"),
	http.StatusServiceUnavailable:    i18n.K("error.status.503"),
	http.StatusGatewayTimeout:        i18n.K("error.status.504"),
}

// Title names an HTTP status in the language of ctx.
func Title(ctx context.Context, code int) string {
	if key, ok := titles[code]; ok {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
	}
	return http.StatusText(code)
}

// RetryAfter is the whole number of seconds from now to t, at least 1.
func RetryAfter(now, t time.Time) int {
	s := int(math.Ceil(t.Sub(now).Seconds()))
	if s < 1 {
		return 1
	}
	return s
}
