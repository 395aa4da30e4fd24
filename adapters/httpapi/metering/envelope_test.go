package metering

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"paygate/core/metering"
)

// The success envelope carries the upstream's body byte for byte (no
// compaction, no HTML escaping) and is the JSON encoding of callEnvelope.
func TestCallEnvelopeKeepsTheUpstreamBody(t *testing.T) {
	data := "{ \"html\": \"<b>&</b>\",\n  \"n\": [1, 2.50] }"
	res := &metering.CallResult{RequestID: `req_"quoted"`, Data: json.RawMessage(data),
		Charged: decimal.RequireFromString("0.5"), BalanceLeft: decimal.RequireFromString("99.5")}
	rec := httptest.NewRecorder()
	c := echo.New().NewContext(httptest.NewRequest(http.MethodPost, "/api/v1/x", nil), rec)
	if err := writeCallEnvelope(c, res); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if !strings.Contains(rec.Body.String(), `"data":`+data+`,`) {
		t.Fatalf("data not verbatim: %s", rec.Body)
	}
	var got callEnvelope
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Success || got.RequestID != res.RequestID || got.Charged != "0.5000" || got.BalanceLeft != "99.50" {
		t.Fatalf("%+v", got)
	}
}
