package web

import (
	"encoding/json"
	"reflect"
	"time"

	"paygate/core/accounts/panel"
	"paygate/core/platform/errs"
)

// ErrNotMultipart refuses an upload that is not multipart/form-data.
var ErrNotMultipart = errs.E(errs.BadRequest, "invalid_multipart", "Request body must be multipart/form-data")

// TimePtr is t, or nil when zero (a time not set).
func TimePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// Deref is *p, or the zero value when p is nil.
func Deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// NullableString is a JSON field that may be absent, null or a string.
type NullableString struct {
	Set   bool
	Value *string
}

func (n *NullableString) UnmarshalJSON(b []byte) error {
	n.Set = true
	if string(b) == "null" {
		n.Value = nil
		return nil
	}
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return &json.UnmarshalTypeError{Value: "non-string", Type: reflect.TypeOf("")}
	}
	n.Value = &v
	return nil
}

// Patch is the field as the panel use cases take it.
func (n NullableString) Patch() panel.Nullable[string] {
	return panel.Nullable[string]{Set: n.Set, Value: n.Value}
}

// Shown is a field that some views write and others leave out (a pointer
// to it, omitempty): where written, its value or null. The caller's own
// account has billing (GET and PATCH /auth/me); an admin's service view
// has sac_code.
type Shown[T any] struct{ V *T }

func (s Shown[T]) MarshalJSON() ([]byte, error) { return json.Marshal(s.V) }
