package metering_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/mock"

	"paygate/core/events/webhook"
	"paygate/core/metering"
)

// A metered call that takes the balance below the threshold writes one
// balance.low event in its batch's transaction; the next call, below
// already, writes none.
func TestMeteredCallCrossingThresholdWritesBalanceLowOnce(t *testing.T) {
	f := newFixture(t)
	alert, hook := dec("9.00"), "https://merchant.example/hooks"
	f.user.LowBalanceAlert, f.user.WebhookURL = &alert, &hook
	f.save()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil)
	for range 2 {
		if _, _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	f.app.Wait()
	if es := f.db.Entries(); len(es) != 2 || !es[0].BalanceBefore.Equal(dec("10.00")) || !es[1].BalanceBefore.Equal(dec("8.77")) {
		t.Fatalf("ledger %+v, want the two debits", es)
	}
	events, ds := f.db.Events(), f.db.Deliveries()
	if len(events) != 1 {
		t.Fatalf("%d events, want one balance.low", len(events))
	}
	e := events[0]
	var body struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal(e.Payload, &body); err != nil {
		t.Fatal(err)
	}
	if e.Type != webhook.BalanceLow || body.Data["balance"] != "8.77" || body.Data["threshold"] != "9.00" ||
		len(ds) != 1 || ds[0].Destination != webhook.ToWebhook || ds[0].URL != hook || ds[0].EventID != e.ID {
		t.Fatalf("event %s %s, deliveries %+v", e.Type, e.Payload, ds)
	}
}
