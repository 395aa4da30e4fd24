package gateway

import (
	"context"
	"errors"
	"time"
)

// workRound is one round of a gateway worker over the rows that are due,
// in their order: one claims a row and works it, reporting whether it
// finished or moved it. A row's error does not stop the round (the errors
// are returned together at its end); the round claims no new row once
// budget has passed (a slow provider makes each row cost up to its timeout:
// the rest stay due for the next round or instance) or ctx has ended. It
// returns how many rows one finished.
func workRound[T any](ctx context.Context, budget time.Duration, due []T, one func(context.Context, *T) (bool, error)) (int, error) {
	n := 0
	var errsSeen []error
	start := time.Now() // real time: the round's own duration, not the business clock
	for i := range due {
		if ctx.Err() != nil || time.Since(start) > budget {
			break
		}
		done, err := one(ctx, &due[i])
		if err != nil {
			errsSeen = append(errsSeen, err)
		}
		if done {
			n++
		}
	}
	return n, errors.Join(errsSeen...)
}
