package money

import (
	"slices"
	"testing"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/core/money/topup"
)

// The documented multipart form lists exactly the fields the handler reads,
// and the payment methods the domain accepts.
func TestOpenAPIBalanceRequestForm(t *testing.T) {
	doc := apischema.Load(t)
	form := apischema.Object(t, doc, "BalanceRequestForm")
	want := append(slices.Clone(topUpFields), "screenshot")
	var got []string
	for name := range form.Properties {
		got = append(got, name)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("BalanceRequestForm properties %v, handler fields %v", got, want)
	}
	var methods []string
	for _, v := range apischema.Object(t, doc, "PaymentMethod").Enum {
		methods = append(methods, v.(string))
	}
	if !slices.Equal(methods, topup.PaymentMethods) {
		t.Errorf("PaymentMethod enum %v, domain %v", methods, topup.PaymentMethods)
	}
	op := doc.Paths.Find("/api/v1/panel/balance-requests").Post
	if op.RequestBody.Value.Content.Get("multipart/form-data") == nil {
		t.Error("the create operation does not document a multipart body")
	}
	shot := doc.Paths.Find("/api/v1/panel/balance-requests/{id}/screenshot").Get.Responses.Value("200").Value
	for _, ft := range []topup.FileType{topup.PNG, topup.JPEG, topup.WebP, topup.PDF} {
		if shot.Content.Get(ft.ContentType) == nil {
			t.Errorf("the screenshot response does not list %s", ft.ContentType)
		}
	}
}
