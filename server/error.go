package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The error codes of the API. Each maps to one HTTP status (StatusCode).
const (
	EINVALID      = "EINVALID"      // the request is malformed or breaks the rules: 400
	EUNAUTHORIZED = "EUNAUTHORIZED" // no seat token, or one that opens no seat of the game: 401
	EFORBIDDEN    = "EFORBIDDEN"    // a cross-origin browser request, or free text at a table without chat: 403
	ENOTFOUND     = "ENOTFOUND"     // no such game or endpoint: 404
	EMETHOD       = "EMETHOD"       // the endpoint does not take the request's method (Allow lists those it takes): 405
	ECONFLICT     = "ECONFLICT"     // not the seat's turn, a stale event number, the game is over: 409
	ETIMEOUT      = "ETIMEOUT"      // a request's body did not arrive within Config.BodyTimeout: 408
	ETOOLARGE     = "ETOOLARGE"     // a body or message over the size limit: 413
	ETOOMANY      = "ETOOMANY"      // over the rate limit: 429
	EINTERNAL     = "EINTERNAL"     // the server's own failure: 500
	EUNAVAILABLE  = "EUNAVAILABLE"  // shutting down, or the store failed; try again (Retry-After): 503
)

// statusCodes is the one place where error codes become HTTP statuses.
var statusCodes = map[string]int{
	EINVALID:      http.StatusBadRequest,
	EUNAUTHORIZED: http.StatusUnauthorized,
	EFORBIDDEN:    http.StatusForbidden,
	ENOTFOUND:     http.StatusNotFound,
	EMETHOD:       http.StatusMethodNotAllowed,
	ECONFLICT:     http.StatusConflict,
	ETIMEOUT:      http.StatusRequestTimeout,
	ETOOLARGE:     http.StatusRequestEntityTooLarge,
	ETOOMANY:      http.StatusTooManyRequests,
	EINTERNAL:     http.StatusInternalServerError,
	EUNAVAILABLE:  http.StatusServiceUnavailable,
}

// StatusCode returns the HTTP status of an error code; 500 for an unknown one.
func StatusCode(code string) int {
	if s, ok := statusCodes[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Error is an error of the API: a code for programs and a message for
// people that says why the request was refused. The server's other
// failures are shown as EINTERNAL without their details.
type Error struct {
	Code    string `json:"code"`    // one of the codes above, such as ECONFLICT
	Message string `json:"message"` // why the request was refused, for people

	retry time.Duration // EUNAVAILABLE: when to try again (Retry-After); 0 for a second
}

// Error returns the error as one line, such as "server: ECONFLICT: not your
// turn: West is to act".
func (e *Error) Error() string {
	return fmt.Sprintf("server: %s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// unavailable returns an EUNAVAILABLE error that tells the client to try
// again after retry.
func unavailable(retry time.Duration, format string, args ...any) *Error {
	e := Errorf(EUNAVAILABLE, format, args...)
	e.retry = retry
	return e
}

// retryAfter returns the seconds an EUNAVAILABLE error tells the client to
// wait, as Retry-After says them: at least 1.
func retryAfter(err error) int {
	var e *Error
	if errors.As(err, &e) && e.retry > time.Second {
		return int((e.retry + time.Second - 1) / time.Second)
	}
	return 1
}

// ErrorCode returns the code of err: its own if it is an *Error, EINTERNAL
// for any other error, "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of err to show a client: its own if it
// is an *Error, "internal error" for any other error.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "internal error"
}
