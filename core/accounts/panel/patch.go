package panel

// Nullable is a patch field that may be absent (Set false), null (Value
// nil) or a value.
type Nullable[T any] struct {
	Set   bool
	Value *T
}
