package retention_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/core/metering/hitlog"
	"paygate/core/metering/retention"
	"paygate/core/platform/store/storetest"
)

type metrics struct {
	keep    time.Duration
	removed int
}

func (m *metrics) HitPayloadRetention(keep time.Duration) { m.keep = keep }
func (m *metrics) HitPayloadsRemoved(n int)               { m.removed += n }

// TestRoundClearsOldPayloadsInBatches: a round clears the payloads of hits
// older than the retention, batch after batch with a pause between, keeps
// recent ones, and counts what it removed.
func TestRoundClearsOldPayloadsInBatches(t *testing.T) {
	ctx := context.Background()
	db := storetest.New()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	keep := 30 * 24 * time.Hour
	resp := "{}"
	for i := range 7 {
		at := now.Add(-keep - time.Hour)
		if i >= 5 {
			at = now.Add(-keep + time.Hour)
		}
		h := &hitlog.Hit{UserID: 1, RequestID: string(rune('a' + i)), RequestPayload: `{"x":1}`, ResponsePayload: &resp,
			Status: hitlog.StatusSuccess, CreatedAt: at}
		if err := db.Stores().Hits.Insert(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	m := &metrics{}
	pauses := 0
	r := retention.New(retention.Deps{Hits: db.Stores().Hits, Now: func() time.Time { return now }, Metrics: m,
		Sleep:  func(context.Context, time.Duration) error { pauses++; return nil },
		Config: retention.Config{Keep: keep, Batch: 2}})
	if m.keep != keep || r.Keep() != keep {
		t.Fatalf("retention reported %s, Keep %s; want %s", m.keep, r.Keep(), keep)
	}
	n, err := r.Round(ctx)
	if err != nil || n != 5 {
		t.Fatalf("round: %d cleared, %v; want the 5 old hits", n, err)
	}
	if calls := db.Calls("Hits.ClearPayloads"); calls != 3 || pauses != 2 {
		t.Fatalf("%d batches, %d pauses; want 3 batches of at most 2 with a pause between each", calls, pauses)
	}
	if m.removed != 5 {
		t.Fatalf("metric counted %d removed, want 5", m.removed)
	}
	for i := range 7 {
		h, err := db.Stores().Hits.ByRequestID(ctx, string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		cleared := h.RequestPayload == "" && h.ResponsePayload == nil
		if cleared != (i < 5) {
			t.Fatalf("hit %d: cleared %v, want %v", i, cleared, i < 5)
		}
	}
	if n, err := r.Round(ctx); err != nil || n != 0 {
		t.Fatalf("second round: %d, %v; want nothing left", n, err)
	}
}

// TestRoundStopsAtMaxBatchesAndOnErrors: a round is bounded, and a store
// error ends it with what was cleared so far.
func TestRoundStopsAtMaxBatchesAndOnErrors(t *testing.T) {
	ctx := context.Background()
	db := storetest.New()
	now := time.Now()
	for i := range 10 {
		if err := db.Stores().Hits.Insert(ctx, &hitlog.Hit{RequestID: string(rune('a' + i)), RequestPayload: "{}",
			CreatedAt: now.Add(-100 * 24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	noSleep := func(context.Context, time.Duration) error { return nil }
	r := retention.New(retention.Deps{Hits: db.Stores().Hits, Sleep: noSleep, Config: retention.Config{Batch: 2, MaxBatches: 3}})
	if n, err := r.Round(ctx); err != nil || n != 6 {
		t.Fatalf("bounded round: %d, %v; want 3 batches of 2", n, err)
	}
	boom := errors.New("boom")
	db.Fail("Hits.ClearPayloads", nil, boom)
	if n, err := r.Round(ctx); !errors.Is(err, boom) || n != 2 {
		t.Fatalf("failing round: %d, %v; want 2 and the error", n, err)
	}
}
