package main

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The operators' commands that act at an instant (billing run, invoices
// issue, commissions settle) take --at, the clock by default, and refuse
// one later than the clock unless --allow-future is given, which
// APP_ENV=production refuses (docs/decisions.md, "Tax invoices, credit
// notes and statements"): a month is never closed, nor a renewal charged
// or a commission hour credited, before its time; what is charged after
// an early close would never be invoiced.

// exitError ends the process with code, its message printed on one line.
type exitError struct {
	code exitCode
	msg  string
}

func (e exitError) Error() string { return e.msg }
func (e exitError) Unwrap() error { return e.code }

// instantArgs are a command's --at and --allow-future.
type instantArgs struct {
	at          time.Time
	allowFuture bool
}

// parseInstant reads cmd's args: --at INSTANT (RFC 3339, or --at=INSTANT),
// --allow-future, and the flags named in extra (--name VALUE or
// --name=VALUE, into their string). Anything else is the usage use. now
// is the clock, the default of --at.
func parseInstant(cmd, use string, args []string, extra map[string]*string, now time.Time) (instantArgs, error) {
	in := instantArgs{at: now}
	for len(args) > 0 {
		if args[0] == "--allow-future" {
			in.allowFuture, args = true, args[1:]
			continue
		}
		name, value, ok := strings.Cut(args[0], "=")
		if !ok {
			if len(args) < 2 {
				return in, errors.New(use)
			}
			value, args = args[1], args[1:]
		}
		args = args[1:]
		switch dst, isExtra := extra[name]; {
		case name == "--at":
			t, err := time.Parse(time.RFC3339, value)
			if err != nil {
				return in, fmt.Errorf("%s --at: %w", cmd, err)
			}
			in.at = t
		case isExtra:
			*dst = value
		default:
			return in, errors.New(use)
		}
	}
	return in, nil
}

// check refuses, with exit status 2, an instant later than now without
// --allow-future, and --allow-future in production.
func (in instantArgs) check(cmd string, now time.Time, production bool) error {
	if msg := futureProblem(in.at, now, in.allowFuture, production); msg != "" {
		return exitError{code: 2, msg: cmd + ": " + msg}
	}
	return nil
}

// futureProblem says why a command may not act at at when the clock reads
// now, or "": an instant later than now needs allowFuture, which
// production never allows.
func futureProblem(at, now time.Time, allowFuture, production bool) string {
	switch {
	case allowFuture && production:
		return "--allow-future is refused when APP_ENV=production: a period is never closed before it ends"
	case at.After(now) && !allowFuture:
		return fmt.Sprintf("--at %s is later than the clock (%s): a period is never closed before it ends; "+
			"--allow-future allows it outside production", at.Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return ""
}
