// Package errs is the service's small error vocabulary: a Kind that the HTTP
// edge maps to a status, a stable snake_case code and a message safe to show.
package errs

import (
	"errors"
	"fmt"
)

// Kind classifies an error for the edge; it never leaks internals.
type Kind int

const (
	Internal Kind = iota
	Invalid
	NotFound
	Conflict
	Unauthenticated
	Forbidden
	InsufficientFunds
	LimitExceeded
	Unavailable
	MethodNotAllowed
	Upstream
	TooLarge
	BadRequest
)

// Error is a domain error with a safe message. Fields carries per-field
// validation messages (422).
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string][]string
	Err     error // wrapped cause, never shown to clients
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by code, so errors.Is(err, user.ErrNotActive) works.
func (e *Error) Is(target error) bool {
	var t *Error
	if errors.As(target, &t) {
		return t.Code == e.Code
	}
	return false
}

// E builds an error of a kind with a code and message.
func E(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

// Wrap returns a copy of e carrying cause.
func (e *Error) Wrap(cause error) *Error {
	c := *e
	c.Err = cause
	return &c
}

// Validation is a 422 with per-field messages.
func Validation(fields map[string][]string) *Error {
	return &Error{Kind: Invalid, Code: "validation_failed", Message: "Invalid parameters", Fields: fields}
}

// KindOf reports the kind of err; Internal for anything not built here.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// As returns the *Error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Common errors shared by several domains.
var (
	ErrNotFound     = E(NotFound, "not_found", "Resource not found")
	ErrConflict     = E(Conflict, "conflict", "Resource already exists")
	ErrForbidden    = E(Forbidden, "forbidden", "You are not allowed to do this")
	ErrUnauthorized = E(Unauthenticated, "unauthenticated", "Authentication required")
	ErrUnavailable  = E(Unavailable, "service_unavailable", "Service temporarily unavailable")
)

// FieldErrors collects per-field messages and turns into a validation error.
type FieldErrors map[string][]string

// Add records a message for a field.
func (f FieldErrors) Add(field, msg string) { f[field] = append(f[field], msg) }

// Require records "is required" for a field whose value v is empty, else
// msg when v is not valid (ok false).
func (f FieldErrors) Require(field, v string, ok bool, msg string) {
	switch {
	case v == "":
		f.Add(field, "is required")
	case !ok:
		f.Add(field, msg)
	}
}

// Merge adds the field messages of a validation error to f. Any other
// error is returned as it is, for the caller to stop on.
func (f FieldErrors) Merge(err error) error {
	if err == nil {
		return nil
	}
	e, ok := As(err)
	if !ok || e.Kind != Invalid || e.Fields == nil {
		return err
	}
	for k, v := range e.Fields {
		f[k] = append(f[k], v...)
	}
	return nil
}

// Err returns nil when empty, else a validation error.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return Validation(f)
}
