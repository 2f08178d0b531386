package handlers

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/httpx/formbody"
)

// postForm is the body of a form post, and only its body: echo's
// FormParams and FormValue merge the URL's query in, so a form whose
// action keeps a list's query (?status=…) would read a filter as one more
// row value. The query stays the list's (parseListQuery reads it).
func postForm(c echo.Context) (url.Values, error) {
	r := c.Request()
	if r.PostForm == nil { // formbody.Read parses it first on every form route
		if err := formbody.Parse(r); err != nil {
			return nil, err
		}
	}
	return r.PostForm, nil
}

// postValue is the first value of a field of the body of a form post, or
// "" (see postForm).
func postValue(c echo.Context, name string) string {
	form, err := postForm(c)
	if err != nil {
		return ""
	}
	return form.Get(name)
}
