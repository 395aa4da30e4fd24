package errs

import (
	"errors"
	"testing"
)

func TestFieldErrorsMerge(t *testing.T) {
	fe := FieldErrors{}
	fe.Add("name", "is required")
	if err := fe.Merge(Validation(map[string][]string{"name": {"is too long"}, "email": {"is invalid"}})); err != nil {
		t.Fatal(err)
	}
	if len(fe["name"]) != 2 || len(fe["email"]) != 1 {
		t.Fatalf("%v", fe)
	}
	other := errors.New("database down")
	if err := fe.Merge(other); err != other {
		t.Fatalf("a non-validation error must come back: %v", err)
	}
	if fe.Merge(nil) != nil || (FieldErrors{}).Err() != nil {
		t.Fatal("nil and empty are no errors")
	}
	e, ok := As(fe.Err())
	if !ok || e.Kind != Invalid || e.Message != "Invalid parameters" {
		t.Fatalf("%v", e)
	}
}
