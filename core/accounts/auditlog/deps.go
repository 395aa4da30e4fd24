package auditlog

// Log is the audit log's reading (the entries are written by each change,
// core/platform/store's Record).
type Log struct {
	entries Entries
}

// New wires the audit log.
func New(entries Entries) *Log { return &Log{entries: entries} }
