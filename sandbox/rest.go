package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Seller REST validation issues.
const (
	issueRequired  = "is required"
	issueInteger   = "must be an integer"
	issueDateTime  = "must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z"
	issueChoiceFmt = "must be one of %s"
)

type paginationJSON struct {
	Page  int `json:"page"`
	Limit int `json:"limit"`
	Pages int `json:"pages"`
	Total int `json:"total"`
}

func restInt(vals url.Values, name string, def, lo, hi int) (int, *restDetail) {
	vs, ok := vals[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(vs[0])
	if err != nil {
		return 0, &restDetail{Field: name, Issue: issueInteger}
	}
	if n < lo || n > hi {
		return 0, &restDetail{Field: name, Issue: fmt.Sprintf("must be between %d and %d", lo, hi)}
	}
	return n, nil
}

func restTime(vals url.Values, name string) (time.Time, *restDetail) {
	v := vals.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, &restDetail{Field: name, Issue: issueDateTime}
	}
	return t, nil
}

func validBoxStatus(st string) bool {
	for _, v := range returnBoxStatuses {
		if v == st {
			return true
		}
	}
	return false
}

// handleReturnBoxes serves GET /api/v2/fbs/return-boxes: query seller_id
// (required), page, limit, status, created_from and created_to (RFC 3339).
func (s *Sandbox) handleReturnBoxes(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	vals, err := url.ParseQuery(c.r.URL.RawQuery)
	if err != nil {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the query string is malformed",
			restDetail{Field: "query", Issue: "is not a valid URL query"})
	}
	var details []restDetail
	var seller int64
	sp := s.sellerParam()
	if v, ok := vals[sp]; !ok || v[0] == "" {
		details = append(details, restDetail{Field: sp, Issue: issueRequired})
	} else if n, err := strconv.ParseInt(v[0], 10, 64); err != nil || n <= 0 {
		details = append(details, restDetail{Field: sp, Issue: "must be a positive integer"})
	} else {
		seller = n
	}
	page, d := restInt(vals, "page", 1, 1, maxPage)
	if d != nil {
		details = append(details, *d)
	}
	limit, d := restInt(vals, "limit", defaultLimit, 1, maxLimit)
	if d != nil {
		details = append(details, *d)
	}
	status := vals.Get("status")
	if status != "" && !validBoxStatus(status) {
		details = append(details, restDetail{Field: "status", Issue: fmt.Sprintf(issueChoiceFmt, strings.Join(returnBoxStatuses, ", "))})
	}
	from, d := restTime(vals, "created_from")
	if d != nil {
		details = append(details, *d)
	}
	to, d := restTime(vals, "created_to")
	if d != nil {
		details = append(details, *d)
	}
	if d == nil && !from.IsZero() && !to.IsZero() && to.Before(from) {
		details = append(details, restDetail{Field: "created_to", Issue: "must not be before created_from"})
	}
	if len(details) > 0 {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "request validation failed", details...)
	}
	if seller != c.auth.sellerID {
		return restError(http.StatusForbidden, "FORBIDDEN", fmt.Sprintf("seller_id %d is not the seller of this token", seller))
	}

	s.mu.RLock()
	sd := s.sellers[seller]
	s.mu.RUnlock()
	list := sd.boxes
	if status != "" {
		list = sd.boxesByStatus[status]
	}
	if !from.IsZero() || !to.IsZero() {
		filtered := make([]*returnBox, 0, len(list))
		for _, b := range list {
			if (from.IsZero() || !b.createdAt.Before(from)) && (to.IsZero() || b.createdAt.Before(to)) {
				filtered = append(filtered, b)
			}
		}
		list = filtered
	}
	lo, hi, pages := pageBounds(len(list), page, limit)
	if s.lamoda() {
		return lamodaBoxes(page, limit, pages, len(list), list[lo:hi])
	}
	pag, _ := marshalJSON(paginationJSON{Page: page, Limit: limit, Pages: pages, Total: len(list)})
	size := 32 + len(pag)
	for _, b := range list[lo:hi] {
		size += len(b.raw) + 1
	}
	buf := make([]byte, 0, size)
	buf = append(buf, `{"data":[`...)
	for i, b := range list[lo:hi] {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b.raw...)
	}
	buf = append(buf, `],"pagination":`...)
	buf = append(buf, pag...)
	buf = append(buf, '}')
	return &response{status: http.StatusOK, ctype: ctypeJSON, body: buf}
}

// handleReturnBox serves GET /api/v2/fbs/return-boxes/{code}: {"data": box}.
// A box of another seller is 404, as the spec says for the seller REST API.
func (s *Sandbox) handleReturnBox(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	s.mu.RLock()
	sd := s.sellers[c.auth.sellerID]
	s.mu.RUnlock()
	box, ok := sd.boxByCode[c.subpath]
	if !ok {
		return restError(http.StatusNotFound, "NOT_FOUND", "return box not found")
	}
	body := make([]byte, 0, len(box.raw)+10)
	body = append(body, `{"data":`...)
	body = append(body, box.raw...)
	body = append(body, '}')
	return &response{status: http.StatusOK, ctype: ctypeJSON, body: body}
}
