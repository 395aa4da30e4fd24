package app

import (
	"context"
	"time"
)

// backgroundTimeout bounds work done after the answer (a slow mail server).
const backgroundTimeout = 2 * time.Minute

// later runs fn after the answer, with the request's values but not its
// cancellation; Wait waits for it.
func (a *App) later(ctx context.Context, fn func(ctx context.Context)) {
	ctx = context.WithoutCancel(ctx)
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		ctx, cancel := context.WithTimeout(ctx, backgroundTimeout)
		defer cancel()
		fn(ctx)
	}()
}

// mailLater sends m after the answer (the caller's transaction has committed).
// A failure is logged, never returned: the request it belongs to has
// succeeded, and the user can ask again (resend, forgot password).
func (a *App) mailLater(ctx context.Context, m Message) {
	if a.mailer == nil {
		a.log.Warn("mail not sent: no mailer configured", "subject", m.Subject)
		return
	}
	a.later(ctx, func(ctx context.Context) {
		if err := a.mailer.Send(ctx, m); err != nil {
			a.log.Error("send mail", "to", m.To, "subject", m.Subject, "err", err)
		}
	})
}
