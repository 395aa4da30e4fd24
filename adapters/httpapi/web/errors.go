package web

import (
	"strconv"
	"time"
)

// ErrorBody is the body of every API error.
type ErrorBody struct {
	Success   bool                `json:"success"`
	Message   string              `json:"message"`
	Error     string              `json:"error"`
	RequestID string              `json:"request_id,omitempty"`
	Errors    map[string][]string `json:"errors,omitempty"`
}

// RetryAfterSeconds is d in whole seconds, rounded up, at least 1.
func RetryAfterSeconds(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
