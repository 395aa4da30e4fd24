package accounts

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/platform/errs"
)

// FuzzBind fuzzes the panel's strict JSON bind with a real request type:
// it never panics and never fails as a 500; a body it accepts is valid JSON
// (or blank), has only known fields, passes the validate tags, and decodes
// to the same value again.
func FuzzBind(f *testing.F) {
	for _, b := range []string{"", "{}", `{"name":"A","email":"a@example.com","phone":"9876543210","password":"pw-123456","role":"user"}`,
		`{"name":"A","email":"a@example.com","phone":"1","password":"p"}}`, `{"name":"A","email":"a@example.com","phone":"1","password":"p"}]`,
		`{"nmae":"typo"}`, `{"name":1}`, `[]`, `null`, `{"name":"A"} {"name":"B"}`, `{"name":"\u0000"}`, "\xff", `{"role":"god"}`} {
		f.Add([]byte(b))
	}
	k := web.NewKit(nil, 1<<16, 0)
	e := echo.New()
	f.Fuzz(func(t *testing.T, body []byte) {
		c := e.NewContext(httptest.NewRequest("POST", "/", bytes.NewReader(body)), httptest.NewRecorder())
		var req createUserRequest
		err := k.Bind(c, &req)
		if err != nil {
			if k := errs.KindOf(err); k != errs.BadRequest && k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("refused as %v: %v", k, err)
			}
			return
		}
		if len(bytes.TrimSpace(body)) > 0 && !json.Valid(body) {
			t.Fatalf("accepted %q: not JSON", body)
		}
		if k.Check(&req) != nil {
			t.Fatalf("accepted %+v against the validate tags", req)
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return
		}
		var again createUserRequest
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&again); err != nil || !reflect.DeepEqual(again, req) {
			t.Fatalf("accepted %q decodes differently: %+v vs %+v (%v)", body, again, req, err)
		}
	})
}
