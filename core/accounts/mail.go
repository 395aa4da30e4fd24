package accounts

import (
	"context"
	"paygate/core/accounts/panel"
	"time"
)

// backgroundTimeout bounds work done after the answer (a slow mail server).
const backgroundTimeout = 2 * time.Minute

// later runs fn after the answer, with the request's values but not its
// cancellation; Wait waits for it.
func (p *Accounts) later(ctx context.Context, fn func(ctx context.Context)) {
	ctx = context.WithoutCancel(ctx)
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		ctx, cancel := context.WithTimeout(ctx, backgroundTimeout)
		defer cancel()
		fn(ctx)
	}()
}

// mailLater sends m after the answer (the caller's transaction has committed).
// A failure is logged, never returned: the request it belongs to has
// succeeded, and the user can ask again (resend, forgot password).
func (p *Accounts) mailLater(ctx context.Context, m panel.Message) {
	if p.mailer == nil {
		p.log.Warn("mail not sent: no mailer configured", "subject", m.Subject)
		return
	}
	p.later(ctx, func(ctx context.Context) {
		if err := p.mailer.Send(ctx, m); err != nil {
			p.log.Error("send mail", "to", m.To, "subject", m.Subject, "err", err)
		}
	})
}
