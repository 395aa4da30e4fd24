package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"sync"
	"testing"
)

// part is a file in a multipart form.
type part struct {
	field, filename, contentType string
	data                         []byte
}

// upload posts a multipart balance request with text fields and files.
func (e *env) upload(token string, fields map[string]string, files ...part) resp {
	e.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			e.t.Fatal(err)
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.field, f.filename))
		h.Set("Content-Type", f.contentType)
		pw, err := w.CreatePart(h)
		if err != nil {
			e.t.Fatal(err)
		}
		pw.Write(f.data)
	}
	w.Close()
	return e.raw("POST", "/api/v1/panel/balance-requests", token, w.FormDataContentType(), &body)
}

// raw sends a body with a content type of the caller's choosing.
func (e *env) raw(method, path, token, contentType string, body io.Reader) resp {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.url+path, body)
	req.Header.Set("Content-Type", contentType)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := resp{status: res.StatusCode, raw: string(raw), header: res.Header}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

func (r resp) fieldErrors(field string) []any {
	errs, _ := r.body["errors"].(map[string]any)
	list, _ := errs[field].([]any)
	return list
}

func pngFile(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegFile(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A 1×1 lossless WebP.
var webpFile = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

var pdfFile = []byte("%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n")

var utrSeq sync.Mutex
var utrN int

// newUTR is a UTR unique in this test binary.
func newUTR() string {
	utrSeq.Lock()
	defer utrSeq.Unlock()
	utrN++
	return fmt.Sprintf("4%011d", utrN)
}

func (e *env) storedFiles() []string {
	e.t.Helper()
	des, err := os.ReadDir(e.uploads)
	if err != nil {
		e.t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

func TestTopUpCreateChecksFilesByContent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		kinds := []struct {
			name, contentType, wantType string
			data                        []byte
			inline                      bool
		}{
			{"shot.png", "image/png", "image/png", pngFile(t), true},
			{"photo.jpeg", "image/jpeg", "image/jpeg", jpegFile(t), true},
			// Declared types and names do not count, only the content.
			{"receipt.txt", "text/plain", "application/pdf", pdfFile, false},
			{"scan", "application/octet-stream", "image/webp", webpFile, true},
		}
		for _, k := range kinds {
			r := e.must(e.upload(c.token, map[string]string{"amount": "1500.50", "utr_number": newUTR(), "payment_method": "neft", "remarks": "from HDFC"},
				part{"screenshot", k.name, k.contentType, k.data}), 201)
			if r.str("status") != "pending" || r.str("amount") != "1500.50" || r.str("payment_method") != "neft" || r.num("user_id") != c.id ||
				r.str("remarks") != "from HDFC" || r.body["approved_by"] != nil || r.body["approved_at"] != nil {
				t.Fatalf("created %s", r.raw)
			}
			url := r.str("screenshot_url")
			if url != fmt.Sprintf("/api/v1/panel/balance-requests/%d/screenshot", r.num("id")) || strings.Contains(r.raw, k.name) {
				t.Fatalf("screenshot_url %q in %s", url, r.raw)
			}
			for _, who := range []string{c.token, e.admin} {
				got := e.must(e.do("GET", url, who, nil), 200)
				if got.raw != string(k.data) || got.header.Get("Content-Type") != k.wantType || got.header.Get("X-Content-Type-Options") != "nosniff" {
					t.Fatalf("%s: screenshot %q %v", k.name, got.header.Get("Content-Type"), got.header)
				}
				disp := got.header.Get("Content-Disposition")
				if k.inline != strings.HasPrefix(disp, "inline;") || !strings.HasPrefix(disp, "inline;") && !strings.HasPrefix(disp, "attachment;") || strings.Contains(disp, k.name) {
					t.Fatalf("%s: Content-Disposition %q", k.name, disp)
				}
			}
		}
		files := e.storedFiles()
		if len(files) != 4 {
			t.Fatalf("stored %v, want 4 files", files)
		}
		for _, f := range files {
			if strings.ContainsAny(f, "/ ") || strings.Contains(f, "shot") || strings.Contains(f, "receipt") {
				t.Fatalf("stored name %q carries the client's name", f)
			}
		}

		// Text named shot.png, declared image/png: refused, nothing stored.
		fake := e.must(e.upload(c.token, map[string]string{"amount": "10", "utr_number": newUTR()},
			part{"screenshot", "shot.png", "image/png", []byte("this is plain text pretending to be a PNG")}), 422)
		if len(fake.fieldErrors("screenshot")) != 1 || !strings.Contains(fake.raw, "PNG, JPEG, WebP or PDF") {
			t.Fatalf("fake PNG: %s", fake.raw)
		}
		for _, bad := range [][]byte{[]byte("GIF89a\x01\x00\x01\x00"), []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), {}} {
			e.must(e.upload(c.token, map[string]string{"amount": "10", "utr_number": newUTR()}, part{"screenshot", "x.png", "image/png", bad}), 422)
		}
		// One byte over 5 MB: a clear field error.
		big := append(pngFile(t), make([]byte, 5<<20)...)[:5<<20+1]
		over := e.must(e.upload(c.token, map[string]string{"amount": "10", "utr_number": newUTR()}, part{"screenshot", "big.png", "image/png", big}), 422)
		if !strings.Contains(strings.Join(toStrings(over.fieldErrors("screenshot")), " "), "at most 5 MB") {
			t.Fatalf("5 MB + 1: %s", over.raw)
		}
		// Exactly 5 MB is fine.
		e.must(e.upload(c.token, map[string]string{"amount": "10", "utr_number": newUTR()}, part{"screenshot", "max.png", "image/png", big[:5<<20]}), 201)
		// A body over the route's limit: 413 before it is read.
		huge := e.upload(c.token, map[string]string{"amount": "10", "utr_number": newUTR()}, part{"screenshot", "huge.png", "image/png", make([]byte, 7<<20)})
		if huge.status != 413 || huge.str("error") != "body_too_large" {
			t.Fatalf("7 MB body: %d %s", huge.status, huge.raw)
		}
		// The same without a Content-Length (chunked): cut while reading, also 413.
		var chunked bytes.Buffer
		mw := multipart.NewWriter(&chunked)
		fw, _ := mw.CreateFormFile("screenshot", "huge.png")
		fw.Write(append(pngFile(t), make([]byte, 7<<20)...))
		mw.Close()
		unsized := e.raw("POST", "/api/v1/panel/balance-requests", c.token, mw.FormDataContentType(), io.MultiReader(&chunked))
		if unsized.status != 413 || unsized.str("error") != "body_too_large" {
			t.Fatalf("7 MB chunked body: %d %s", unsized.status, unsized.raw)
		}
		if n := len(e.storedFiles()); n != 5 {
			t.Fatalf("%d files stored, want 5 (refused uploads leave none)", n)
		}

		// Without a screenshot (also an empty file input, as browsers send it).
		none := e.must(e.upload(c.token, map[string]string{"amount": "99", "utr_number": newUTR()}), 201)
		if none.body["screenshot_url"] != nil || none.str("payment_method") != "upi" {
			t.Fatalf("no screenshot: %s", none.raw)
		}
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d/screenshot", none.num("id")), c.token, nil), 404)
		e.must(e.upload(c.token, map[string]string{"amount": "99", "utr_number": newUTR(), "screenshot": ""}), 201)
	})
}

func toStrings(list []any) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i], _ = v.(string)
	}
	return out
}

func TestTopUpCreateRefusesBadInput(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("reseller", "starter", "0.00")
		r := e.must(e.upload(c.token, map[string]string{"amount": "10.005", "utr_number": "12 34", "payment_method": "bitcoin"}), 422)
		for _, f := range []string{"amount", "utr_number", "payment_method"} {
			if len(r.fieldErrors(f)) != 1 {
				t.Fatalf("no error on %s: %s", f, r.raw)
			}
		}
		e.must(e.upload(c.token, map[string]string{"utr_number": newUTR()}), 422)
		e.must(e.upload(c.token, map[string]string{"amount": "500000.01", "utr_number": newUTR()}), 422)
		e.must(e.upload(c.token, map[string]string{"amount": "500000.00", "utr_number": newUTR()}), 201)
		unknown := e.must(e.upload(c.token, map[string]string{"amount": "1", "utr_number": newUTR(), "user_id": "1"}), 422)
		if len(unknown.fieldErrors("user_id")) != 1 {
			t.Fatalf("unknown field: %s", unknown.raw)
		}
		two := e.must(e.upload(c.token, map[string]string{"amount": "1", "utr_number": newUTR()},
			part{"screenshot", "a.pdf", "application/pdf", pdfFile}, part{"screenshot", "b.pdf", "application/pdf", pdfFile}), 422)
		if len(two.fieldErrors("screenshot")) != 1 {
			t.Fatalf("two files: %s", two.raw)
		}
		e.must(e.upload(c.token, map[string]string{"amount": "1", "utr_number": newUTR(), "screenshot": "not a file"}), 422)
		// Not multipart: 400; not signed in: 401.
		if j := e.do("POST", "/api/v1/panel/balance-requests", c.token, map[string]any{"amount": "1", "utr_number": newUTR()}); j.status != 400 || j.str("error") != "invalid_multipart" {
			t.Fatalf("JSON body: %d %s", j.status, j.raw)
		}
		e.must(e.raw("POST", "/api/v1/panel/balance-requests", c.token, "multipart/form-data; boundary=x", strings.NewReader("garbage")), 400)
		e.must(e.upload("", map[string]string{"amount": "1", "utr_number": newUTR()}), 401)
		if len(e.storedFiles()) != 0 {
			t.Fatal("refused requests stored files")
		}
	})
}

func TestTopUpReusedUTR(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		a := e.newCustomer("user", "starter", "0.00")
		b := e.newCustomer("user", "starter", "0.00")
		utr := "AXIS-" + newUTR()
		e.must(e.upload(a.token, map[string]string{"amount": "100", "utr_number": utr}), 201)
		for _, again := range []string{utr, strings.ToLower(utr), "  " + utr + " "} {
			r := e.must(e.upload(b.token, map[string]string{"amount": "100", "utr_number": again}, part{"screenshot", "s.png", "image/png", pngFile(t)}), 409)
			if r.str("error") != "utr_taken" || r.str("message") != "This UTR number has already been submitted" {
				t.Fatalf("reused UTR: %s", r.raw)
			}
		}
		// The screenshots of the refused requests were deleted again.
		if files := e.storedFiles(); len(files) != 0 {
			t.Fatalf("refused requests left %v", files)
		}
		// Racing requests with one UTR: one 201, the others the same 409.
		race := newUTR()
		codes := hammer(8, func() int {
			return e.upload(b.token, map[string]string{"amount": "5", "utr_number": race}, part{"screenshot", "s.pdf", "application/pdf", pdfFile}).status
		})
		if codes[201] != 1 || codes[409] != 7 {
			t.Fatalf("racing UTR: %v", codes)
		}
		if files := e.storedFiles(); len(files) != 1 {
			t.Fatalf("racing requests left %d files, want 1", len(files))
		}
	})
}

func TestTopUpListsAndScoping(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		a := e.newCustomer("user", "starter", "0.00")
		b := e.newCustomer("reseller", "starter", "0.00")
		var aIDs []uint64
		for i := range 3 {
			r := e.must(e.upload(a.token, map[string]string{"amount": fmt.Sprint(10 + i), "utr_number": fmt.Sprintf("ALPHA%07d", i)},
				part{"screenshot", "a.png", "image/png", pngFile(t)}), 201)
			aIDs = append(aIDs, r.num("id"))
		}
		bReq := e.must(e.upload(b.token, map[string]string{"amount": "7", "utr_number": "BRAVO0000001"}), 201)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/reject", aIDs[0]), e.admin, map[string]any{"admin_remarks": "no such transfer"}), 200)

		// Users see only their own, even when asking for another user_id.
		for _, q := range []string{"", fmt.Sprintf("?user_id=%d", a.id)} {
			l := e.must(e.do("GET", "/api/v1/panel/balance-requests"+q, b.token, nil), 200)
			if total(l) != 1 || uint64(l.body["data"].([]any)[0].(map[string]any)["user_id"].(float64)) != b.id {
				t.Fatalf("B's list %s", l.raw)
			}
		}
		l := e.must(e.do("GET", "/api/v1/panel/balance-requests?per_page=2", a.token, nil), 200)
		meta := l.body["meta"].(map[string]any)
		if total(l) != 3 || len(l.body["data"].([]any)) != 2 || meta["per_page"].(float64) != 2 || meta["page"].(float64) != 1 {
			t.Fatalf("A's list %s", l.raw)
		}
		// Another user's request does not exist for B; its screenshot neither.
		for _, p := range []string{"", "/screenshot"} {
			r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d%s", aIDs[1], p), b.token, nil), 404)
			if r.str("error") != "balance_request_not_found" {
				t.Fatalf("B reads A's request%s: %s", p, r.raw)
			}
		}
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", aIDs[1]), a.token, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/balance-requests/999999", e.admin, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/balance-requests/abc", e.admin, nil), 404)
		// Deciding is for admins, and for a reseller (B) its customers'
		// requests only: its own is not found (decisions "Resellers: transfers and balance requests").
		for _, p := range []string{"approve", "reject"} {
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/%s", bReq.num("id"), p), b.token, map[string]any{"admin_remarks": "mine"}), 404)
		}

		// Admin filters.
		count := func(q string) int64 {
			t.Helper()
			return total(e.must(e.do("GET", "/api/v1/panel/balance-requests"+q, e.admin, nil), 200))
		}
		checks := map[string]int64{
			"":                                 4,
			"?status=pending":                  3,
			"?status=rejected":                 1,
			"?status=approved":                 0,
			fmt.Sprintf("?user_id=%d", a.id):   3,
			fmt.Sprintf("?user_id=%d", b.id):   1,
			"?q=alpha":                         3,
			"?q=0000001":                       2,
			"?q=BRAVO&status=pending":          1,
			"?from=2000-01-01&to=2999-12-31":   4,
			"?to=2000-01-01":                   0,
			"?from=2999-01-01":                 0,
			"?from=2000-01-01T00:00:00Z&q=ALP": 3,
		}
		for q, want := range checks {
			if got := count(q); got != want {
				t.Errorf("admin list %q: total %d, want %d", q, got, want)
			}
		}
		for _, q := range []string{"?status=done", "?user_id=x", "?from=yesterday", "?per_page=101", "?q=" + strings.Repeat("A", 51)} {
			e.must(e.do("GET", "/api/v1/panel/balance-requests"+q, e.admin, nil), 422)
		}
	})
}

// transactionsOf lists a user's ledger rows (admin view).
func (e *env) transactionsOf(userID uint64) []map[string]any {
	e.t.Helper()
	l := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/transactions?user_id=%d&per_page=100", userID), e.admin, nil), 200)
	var rows []map[string]any
	for _, r := range l.body["data"].([]any) {
		rows = append(rows, r.(map[string]any))
	}
	return rows
}

func TestTopUpApproveAndReject(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")
		utr := newUTR()
		req := e.must(e.upload(c.token, map[string]string{"amount": "250.75", "utr_number": utr}), 201)
		id := req.num("id")
		path := fmt.Sprintf("/api/v1/panel/balance-requests/%d", id)

		ok := e.must(e.do("POST", path+"/approve", e.admin, nil), 200)
		if ok.str("status") != "approved" || ok.body["approved_by"] == nil || ok.str("approved_at") == "" || ok.body["admin_remarks"] != nil {
			t.Fatalf("approved %s", ok.raw)
		}
		if got := e.balance(c); got != "255.75" {
			t.Fatalf("balance %s, want 255.75", got)
		}
		// Decided is final: every later decision is 409, and nothing moves.
		for _, p := range []string{"/approve", "/reject"} {
			r := e.must(e.do("POST", path+p, e.admin, map[string]any{"admin_remarks": "again"}), 409)
			if r.str("message") != "Balance request already decided" || r.str("error") != "already_decided" {
				t.Fatalf("second decision: %s", r.raw)
			}
		}
		if got := e.balance(c); got != "255.75" {
			t.Fatalf("balance after refused decisions %s", got)
		}
		credits := 0
		for _, row := range e.transactionsOf(c.id) {
			if row["reference_type"] == "balance_request" {
				credits++
				if row["type"] != "credit" || uint64(row["reference_id"].(float64)) != id || row["amount"] != "250.75" ||
					row["balance_before"] != "5.00" || row["balance_after"] != "255.75" || !strings.Contains(row["description"].(string), utr) {
					t.Fatalf("credit row %v", row)
				}
			}
		}
		if credits != 1 {
			t.Fatalf("%d credit rows, want 1", credits)
		}

		// Reject needs remarks; it credits nothing.
		second := e.must(e.upload(c.token, map[string]string{"amount": "40", "utr_number": newUTR()}), 201)
		rpath := fmt.Sprintf("/api/v1/panel/balance-requests/%d/reject", second.num("id"))
		for _, body := range []any{nil, map[string]any{}, map[string]any{"admin_remarks": "  "}} {
			r := e.must(e.do("POST", rpath, e.admin, body), 422)
			if len(r.fieldErrors("admin_remarks")) != 1 {
				t.Fatalf("reject without remarks: %s", r.raw)
			}
		}
		e.must(e.do("POST", rpath, e.admin, map[string]any{"admin_remarks": "x", "extra": 1}), 422)
		rej := e.must(e.do("POST", rpath, e.admin, map[string]any{"admin_remarks": " Transfer not received "}), 200)
		if rej.str("status") != "rejected" || rej.str("admin_remarks") != "Transfer not received" || rej.body["approved_by"] == nil {
			t.Fatalf("rejected %s", rej.raw)
		}
		if got := e.balance(c); got != "255.75" {
			t.Fatalf("balance after a rejection %s", got)
		}
		// The owner sees the decision.
		shown := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", second.num("id")), c.token, nil), 200)
		if shown.str("status") != "rejected" || shown.str("admin_remarks") != "Transfer not received" {
			t.Fatalf("owner's view %s", shown.raw)
		}
		e.must(e.do("POST", "/api/v1/panel/balance-requests/999999/approve", e.admin, nil), 404)
		e.must(e.do("POST", "/api/v1/panel/balance-requests/999999/reject", e.admin, map[string]any{"admin_remarks": "x"}), 404)

		// A credit that would not fit the balance column: 422, still pending.
		rich := e.newCustomer("user", "enterprise", "9999900000.00")
		big := e.must(e.upload(rich.token, map[string]string{"amount": "100000", "utr_number": newUTR()}), 201)
		over := e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", big.num("id")), e.admin, map[string]any{"admin_remarks": "ok"}), 422)
		if over.str("error") != "balance_too_large" {
			t.Fatalf("overflow: %s", over.raw)
		}
		still := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", big.num("id")), e.admin, nil), 200)
		if still.str("status") != "pending" || e.balance(rich) != "9999900000.00" {
			t.Fatalf("a refused approval changed something: %s", still.raw)
		}
		e.ledgerClean()
	})
}

// TestTopUpConcurrentApprovals: eight admins approve one request at the same
// moment; exactly one wins and the balance is credited once.
func TestTopUpConcurrentApprovals(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		req := e.must(e.upload(c.token, map[string]string{"amount": "1000.00", "utr_number": newUTR()}), 201)
		admins := make([]string, 8)
		for i := range admins {
			admins[i] = e.newCustomer("admin", "enterprise", "0.00").token
		}
		path := fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", req.num("id"))
		start := make(chan struct{})
		results := make([]resp, len(admins))
		var wg sync.WaitGroup
		for i, tok := range admins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i] = e.do("POST", path, tok, map[string]any{"admin_remarks": fmt.Sprint("admin ", i)})
			}()
		}
		close(start)
		wg.Wait()
		codes := map[int]int{}
		var winner resp
		for _, r := range results {
			codes[r.status]++
			if r.status == 200 {
				winner = r
			} else if r.str("message") != "Balance request already decided" {
				t.Errorf("loser: %d %s", r.status, r.raw)
			}
		}
		if codes[200] != 1 || codes[409] != 7 {
			t.Fatalf("statuses %v, want one 200 and seven 409", codes)
		}
		shown := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", req.num("id")), e.admin, nil), 200)
		if shown.str("status") != "approved" || shown.str("admin_remarks") != winner.str("admin_remarks") || shown.num("approved_by") != winner.num("approved_by") {
			t.Fatalf("stored %s, winner %s", shown.raw, winner.raw)
		}
		credits := 0
		for _, row := range e.transactionsOf(c.id) {
			if row["reference_type"] == "balance_request" {
				credits++
			}
		}
		if credits != 1 || e.balance(c) != "1000.00" {
			t.Fatalf("%d credit rows, balance %s; want 1 and 1000.00", credits, e.balance(c))
		}
		e.ledgerClean()
	})
}

// Two admins approving each other's requests while their own metered calls
// run must not deadlock (on InnoDB a foreign key on approved_by used to lock
// the approver's row before the owner's): every answer is a 200, no 503.
func TestCrossApprovalsDoNotDeadlock(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("xapprove", "0.1000")
		a := e.newCustomer("admin", "enterprise", "50.00")
		b := e.newCustomer("admin", "enterprise", "50.00")
		for round := 0; round < 8; round++ {
			ra := e.must(e.upload(a.token, map[string]string{"amount": "10.00", "utr_number": newUTR()}), 201).num("id")
			rb := e.must(e.upload(b.token, map[string]string{"amount": "10.00", "utr_number": newUTR()}), 201).num("id")
			var mu sync.Mutex
			var bad []string
			var wg sync.WaitGroup
			run := func(f func() resp) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if r := f(); r.status != 200 {
						mu.Lock()
						bad = append(bad, fmt.Sprintf("%d %s", r.status, r.raw))
						mu.Unlock()
					}
				}()
			}
			run(func() resp {
				return e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", rb), a.token, map[string]any{})
			})
			run(func() resp {
				return e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", ra), b.token, map[string]any{})
			})
			for i := 0; i < 3; i++ {
				run(func() resp { return e.call(a, "xapprove", map[string]any{}) })
				run(func() resp { return e.call(b, "xapprove", map[string]any{}) })
			}
			wg.Wait()
			if len(bad) > 0 {
				t.Fatalf("round %d: %v", round, bad)
			}
		}
		e.ledgerClean()
	})
}
