package account

import (
	"errors"
	"fmt"
)

// The codes of an *Error, named as the server's API names them, which
// maps each to an HTTP status.
const (
	EINVALID      = "EINVALID"      // a malformed or unacceptable request: a bad name or password
	EUNAUTHORIZED = "EUNAUTHORIZED" // wrong credentials, or no valid session
	ECONFLICT     = "ECONFLICT"     // a name taken, the last passkey of an account with no password
	ENOTFOUND     = "ENOTFOUND"     // no such account or passkey
	EUNAVAILABLE  = "EUNAVAILABLE"  // busy (too many hashes or ceremonies under way) or the store failed; try again
)

// Error is a refusal of the package: a code for programs and a message
// for people that says why.
type Error struct {
	Code    string // one of the codes above
	Message string // why, for people
	err     error  // the cause, if any (a store's error)
}

// Error returns the error as one line, such as "account: ECONFLICT: the
// name "asha" is taken".
func (e *Error) Error() string { return fmt.Sprintf("account: %s: %s", e.Code, e.Message) }

// Unwrap returns the cause of the error, if any.
func (e *Error) Unwrap() error { return e.err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Code returns err's code if it is an *Error, else "".
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// errSignIn is the one error of every failed sign-in by name, whether the
// name exists or not.
func errSignIn() *Error {
	return Errorf(EUNAUTHORIZED, "wrong username or password")
}

// storeError is a failure of the store as an *Error: EUNAVAILABLE, its
// cause kept for the logs.
func storeError(what string, err error) *Error {
	return &Error{Code: EUNAVAILABLE, Message: what + ": the store failed; try again", err: err}
}
