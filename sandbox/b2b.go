package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// B2B field error messages, in the style of the spec's "This value is not valid.".
const (
	msgBlank       = "This value should not be blank."
	msgNotString   = "This value should be of type string."
	msgNotInteger  = "This value should be of type integer."
	msgChoice      = "The value you selected is not a valid choice."
	msgInvalidJSON = "Invalid JSON."
)

// tokenResultB2B is the B2B token answer (spec §4.1).
type tokenResultB2B struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// tokenFields reads client_id, client_secret and grant_type from a JSON body,
// a form body or the query string.
func tokenFields(c *call) (map[string]string, []b2bFieldError) {
	names := []string{"client_id", "client_secret", "grant_type"}
	out := map[string]string{}
	var errs []b2bFieldError
	body := bytes.TrimSpace(c.body)
	ctype, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	switch {
	case len(body) > 0 && body[0] != '{' && ctype == "application/x-www-form-urlencoded":
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, []b2bFieldError{{Field: "body", Message: "Invalid form body."}}
		}
		for _, n := range names {
			out[n] = vals.Get(n)
		}
	case len(body) > 0:
		var fields map[string]json.RawMessage
		if body[0] != '{' || json.Unmarshal(body, &fields) != nil {
			return nil, []b2bFieldError{{Field: "body", Message: msgInvalidJSON}}
		}
		for _, n := range names {
			raw, ok := fields[n]
			if !ok || isNull(raw) {
				continue
			}
			var v string
			if raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
				errs = append(errs, b2bFieldError{Field: n, Message: msgNotString})
				continue
			}
			out[n] = v
		}
	default:
		vals, err := url.ParseQuery(c.r.URL.RawQuery)
		if err != nil {
			return nil, []b2bFieldError{{Field: "query", Message: "Invalid query string."}}
		}
		for _, n := range names {
			out[n] = vals.Get(n)
		}
	}
	for _, n := range names {
		if out[n] == "" && !hasField(errs, n) {
			errs = append(errs, b2bFieldError{Field: n, Message: msgBlank})
		}
	}
	if g := out["grant_type"]; g != "" && g != "client_credentials" {
		errs = append(errs, b2bFieldError{Field: "grant_type", Message: msgChoice})
	}
	return out, errs
}

func hasField(errs []b2bFieldError, name string) bool {
	for _, e := range errs {
		if e.Field == name {
			return true
		}
	}
	return false
}

// sniffClientID finds client_id in a token request body (B2B JSON or form, or
// JSON-RPC params) without validating anything else.
func sniffClientID(body []byte) string {
	var probe struct {
		ClientID any `json:"client_id"`
		Params   struct {
			ClientID      any `json:"client_id"`
			ClientIDCamel any `json:"clientId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &probe) != nil {
		if vals, err := url.ParseQuery(string(body)); err == nil {
			return vals.Get("client_id")
		}
		return ""
	}
	if v, ok := probe.ClientID.(string); ok {
		return v
	}
	if v, ok := probe.Params.ClientID.(string); ok {
		return v
	}
	v, _ := probe.Params.ClientIDCamel.(string)
	return v
}

func (s *Sandbox) handleB2BToken(c *call) *response {
	fields, errs := tokenFields(c)
	if len(errs) > 0 {
		return b2bValidation(errs...)
	}
	cred, ce := s.checkCredentials(fields["client_id"], fields["client_secret"], c.env)
	switch ce {
	case credInvalid:
		return b2bValidation(b2bFieldError{Field: "client_id", Message: "Invalid client credentials."})
	case credWrongEnv:
		return b2bValidation(b2bFieldError{Field: "client_id",
			Message: "These credentials are not valid for the production environment; they work in the test environment only."})
	}
	tok, err := s.issueToken(cred, c.env)
	if err != nil {
		return b2bError(http.StatusInternalServerError, descInternal)
	}
	return jsonResponse(http.StatusOK, tokenResultB2B{AccessToken: tok.access, TokenType: "Bearer",
		ExpiresIn: int64(tok.ttl.Seconds()), RefreshToken: tok.refresh})
}

// queryInt reads an optional integer query parameter within [lo, hi].
func queryInt(vals url.Values, name string, def, lo, hi int) (int, *b2bFieldError) {
	vs, ok := vals[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(vs[0])
	if err != nil {
		return 0, &b2bFieldError{Field: name, Message: msgNotInteger}
	}
	if n < lo || n > hi {
		return 0, &b2bFieldError{Field: name, Message: fmt.Sprintf("This value should be between %d and %d.", lo, hi)}
	}
	return n, nil
}

func validOrderStatus(st string) bool {
	for _, v := range orderStatuses {
		if v == st {
			return true
		}
	}
	return false
}

type halLink struct {
	Href string `json:"href"`
}

type halLinks struct {
	Self  halLink  `json:"self"`
	First halLink  `json:"first"`
	Last  halLink  `json:"last"`
	Prev  *halLink `json:"prev,omitempty"`
	Next  *halLink `json:"next,omitempty"`
}

func (s *Sandbox) handleOrders(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	vals, err := url.ParseQuery(c.r.URL.RawQuery)
	if err != nil {
		return b2bValidation(b2bFieldError{Field: "query", Message: "Invalid query string."})
	}
	var errs []b2bFieldError
	page, fe := queryInt(vals, "page", 1, 1, maxPage)
	if fe != nil {
		errs = append(errs, *fe)
	}
	limit, fe := queryInt(vals, "limit", defaultLimit, 1, maxLimit)
	if fe != nil {
		errs = append(errs, *fe)
	}
	var status string
	if s.lamoda() {
		var ferrs []b2bFieldError
		status, ferrs = lamodaOrderStatus(vals)
		errs = append(errs, ferrs...)
	} else {
		status = vals.Get("status")
		if status != "" && !validOrderStatus(status) {
			errs = append(errs, b2bFieldError{Field: "status", Message: msgChoice})
		}
	}
	if len(errs) > 0 {
		return b2bValidation(errs...)
	}

	// Orders never change after seeding, so no lock is needed to read them
	// beyond the one that guards the seller map against Reset.
	s.mu.RLock()
	sd := s.sellers[c.auth.sellerID]
	s.mu.RUnlock()
	list := sd.orders
	if status != "" {
		list = sd.ordersByStatus[status]
	}
	lo, hi, pages := pageBounds(len(list), page, limit)

	link := func(p int) halLink {
		q := url.Values{"page": {strconv.Itoa(p)}, "limit": {strconv.Itoa(limit)}}
		if status != "" && s.lamoda() {
			q.Set("filter", "status="+status)
		} else if status != "" {
			q.Set("status", status)
		}
		return halLink{Href: c.prefix + "/api/v1/orders?" + q.Encode()}
	}
	links := halLinks{Self: link(page), First: link(1), Last: link(max(pages, 1))}
	if page > 1 {
		l := link(min(page-1, max(pages, 1)))
		links.Prev = &l
	}
	if page < pages {
		l := link(page + 1)
		links.Next = &l
	}
	linksJSON, _ := marshalJSON(links)

	raw := func(o *order) []byte { return o.raw }
	if s.lamoda() {
		raw = func(o *order) []byte { return o.rawLamoda }
	}
	size := 160 + len(linksJSON)
	for _, o := range list[lo:hi] {
		size += len(raw(o)) + 1
	}
	buf := make([]byte, 0, size)
	buf = append(buf, `{"page":`...)
	buf = strconv.AppendInt(buf, int64(page), 10)
	buf = append(buf, `,"limit":`...)
	buf = strconv.AppendInt(buf, int64(limit), 10)
	buf = append(buf, `,"pages":`...)
	buf = strconv.AppendInt(buf, int64(pages), 10)
	buf = append(buf, `,"total":`...)
	buf = strconv.AppendInt(buf, int64(len(list)), 10)
	buf = append(buf, `,"_embedded":{"orders":[`...)
	for i, o := range list[lo:hi] {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, raw(o)...)
	}
	buf = append(buf, `]},"_links":`...)
	buf = append(buf, linksJSON...)
	buf = append(buf, '}')
	return &response{status: http.StatusOK, ctype: ctypeJSON, body: buf}
}

// Resend request bounds.
const maxResendOrders = 100

// notificationJSON is one queued notification of a resend answer.
type notificationJSON struct {
	ID      string `json:"id"`
	OrderNr string `json:"orderNr"`
	Type    string `json:"type"`
	Status  string `json:"status"`
}

type resendResult struct {
	Queued        int                `json:"queued"`
	Notifications []notificationJSON `json:"notifications"`
}

// stringArray reads an optional JSON array of non-empty strings.
func stringArray(fields map[string]json.RawMessage, name string) ([]string, bool, []b2bFieldError) {
	raw, ok := fields[name]
	if !ok || isNull(raw) {
		return nil, false, nil
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, true, []b2bFieldError{{Field: name, Message: "This value should be of type array."}}
	}
	out := make([]string, 0, len(items))
	var errs []b2bFieldError
	for i, it := range items {
		var v string
		if it[0] != '"' || json.Unmarshal(it, &v) != nil || v == "" {
			errs = append(errs, b2bFieldError{Field: fmt.Sprintf("%s[%d]", name, i), Message: msgNotString})
			continue
		}
		out = append(out, v)
	}
	return out, true, errs
}

func (s *Sandbox) handleResend(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	body := bytes.TrimSpace(c.body)
	var fields map[string]json.RawMessage
	if len(body) == 0 || body[0] != '{' || json.Unmarshal(body, &fields) != nil {
		return b2bValidation(b2bFieldError{Field: "body", Message: msgInvalidJSON})
	}
	orderNrs, present, errs := stringArray(fields, "orderNrs")
	if !present || (len(orderNrs) == 0 && len(errs) == 0) {
		errs = append(errs, b2bFieldError{Field: "orderNrs", Message: msgBlank})
	} else if len(orderNrs) > maxResendOrders {
		errs = append(errs, b2bFieldError{Field: "orderNrs",
			Message: fmt.Sprintf("This collection should contain %d elements or less.", maxResendOrders)})
	}
	types, _, terrs := stringArray(fields, "types")
	errs = append(errs, terrs...)
	for i, t := range types {
		if !validNotificationType(t) {
			errs = append(errs, b2bFieldError{Field: fmt.Sprintf("types[%d]", i), Message: msgChoice})
		}
	}
	if len(errs) > 0 {
		return b2bValidation(errs...)
	}
	if len(types) == 0 {
		types = notificationTypes
	}
	types = dedupe(types)
	orderNrs = dedupe(orderNrs)

	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, nr := range orderNrs {
		owner, ok := s.orderOwner[nr]
		if !ok {
			return b2bError(http.StatusNotFound, descNotFound)
		}
		if owner != c.auth.sellerID {
			return b2bError(http.StatusForbidden, descForbidden)
		}
	}
	for _, nr := range orderNrs {
		for _, t := range types {
			if until, ok := s.notifications[nr+"/"+t]; ok && now.Before(until) {
				return b2bRateLimited(fmt.Sprintf("Notification %s for order %s is already being processed; retry after %s.",
					t, nr, until.Format("2006-01-02T15:04:05Z07:00")))
			}
		}
	}
	res := resendResult{Notifications: make([]notificationJSON, 0, len(orderNrs)*len(types))}
	until := now.Add(s.opts.ResendProcessing)
	for _, nr := range orderNrs {
		for _, t := range types {
			s.notifications[nr+"/"+t] = until
			res.Notifications = append(res.Notifications, notificationJSON{
				ID: "ntf-" + s.randomHex(8), OrderNr: nr, Type: t, Status: "processing"})
		}
	}
	res.Queued = len(res.Notifications)
	s.log.Info("notifications queued", "seller_id", c.auth.sellerID, "queued", res.Queued)
	return jsonResponse(http.StatusAccepted, res)
}

func validNotificationType(t string) bool {
	for _, v := range notificationTypes {
		if v == t {
			return true
		}
	}
	return false
}

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// validGiftCode reports whether code has the shape of a certificate code.
func validGiftCode(code string) bool {
	if len(code) < 4 || len(code) > 32 {
		return false
	}
	for _, r := range code {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func (s *Sandbox) handleGiftCertificate(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	code := c.subpath
	if !validGiftCode(code) {
		return giftError(http.StatusBadRequest, 32602, "Invalid params",
			"certificate code must be 4 to 32 characters of A-Z, 0-9 and -",
			"code: invalid format")
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for id, sd := range s.sellers {
		cert, ok := sd.certs[code]
		if !ok {
			continue
		}
		if id != c.auth.sellerID {
			return giftError(http.StatusForbidden, 403, "Forbidden", "gift certificate belongs to another seller")
		}
		return jsonResponse(http.StatusOK, cert)
	}
	return giftError(http.StatusNotFound, 404, "Gift certificate not found",
		fmt.Sprintf("no gift certificate with code %s", strings.ToUpper(code)))
}
