// Package sandbox holds the built-in fake providers, so every flow works on
// a fresh machine with no outside account.
package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// NewUpstream returns a deterministic fake provider for the four documented
// services, addressed by the upstream client as sandbox://<name>:
//
//	POST /aadhaar-print     {aadhaar_number, name, phone, address?}  → {print_id, status, estimated_time}
//	POST /pan-card-print    {pan_number, name, dob, father_name?}     → {print_id, status, estimated_time}
//	POST /sms-gateway       {phone, message, template_id}             → {message_id, status, delivery_status}
//	GET  /upi-verification  ?upi_id=                                  → {upi_id, account_holder, bank_name, verified}
//
// The same input always gives the same answer: ids are hashes of the input.
// Test inputs (matched case-insensitively in any parameter value):
//
//   - "error500" anywhere   → 500 {"message":"Sandbox provider error"} (try the refund path)
//   - "timeout504" anywhere → no answer until the caller gives up (at most 30s), then 504
//   - "badjson" anywhere    → 200 with a body that is not JSON
//   - upi_id starting with "fail" → verified false, account_holder ""
//   - a parameter breaking the service's rules → 422 {"message":"<field> …"}
//
// Print services answer status "queued"; SMS answers status "queued" and
// delivery_status "pending".
func NewUpstream() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/aadhaar-print", endpoint(http.MethodPost, aadhaarPrint))
	mux.Handle("/pan-card-print", endpoint(http.MethodPost, panCardPrint))
	mux.Handle("/sms-gateway", endpoint(http.MethodPost, smsGateway))
	mux.Handle("/upi-verification", endpoint(http.MethodGet, upiVerification))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, message("Unknown sandbox service"))
	})
	return mux
}

// maxWait bounds the "timeout504" test input when the caller has no deadline.
const maxWait = 30 * time.Second

// params are a call's parameters, all strings.
type params map[string]string

// problem is a rule a parameter breaks: the 422 message.
type problem string

type service func(p params) (any, problem)

// endpoint decodes the parameters (JSON body for POST, query for GET),
// applies the test inputs, then runs the service.
func endpoint(method string, svc service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeJSON(w, http.StatusMethodNotAllowed, message("Method not allowed"))
			return
		}
		p, bad := readParams(r)
		if bad != "" {
			writeJSON(w, http.StatusBadRequest, message(string(bad)))
			return
		}
		switch {
		case p.contains("error500"):
			writeJSON(w, http.StatusInternalServerError, message("Sandbox provider error"))
			return
		case p.contains("timeout504"):
			wait(r.Context())
			writeJSON(w, http.StatusGatewayTimeout, message("Sandbox provider timed out"))
			return
		case p.contains("badjson"):
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "sandbox: this is not JSON")
			return
		}
		data, bad := svc(p)
		if bad != "" {
			writeJSON(w, http.StatusUnprocessableEntity, message(string(bad)))
			return
		}
		writeJSON(w, http.StatusOK, data)
	})
}

func readParams(r *http.Request) (params, problem) {
	p := params{}
	if r.Method == http.MethodGet {
		for k, v := range r.URL.Query() {
			p[k] = v[0]
		}
		return p, ""
	}
	var raw map[string]any
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&raw); err != nil {
		return nil, "Body must be a JSON object"
	}
	for k, v := range raw {
		switch x := v.(type) {
		case string:
			p[k] = x
		case nil:
		default:
			return nil, problem(k + " must be a string")
		}
	}
	return p, ""
}

func wait(ctx context.Context) {
	t := time.NewTimer(maxWait)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func (p params) contains(trigger string) bool {
	for _, v := range p {
		if strings.Contains(strings.ToLower(v), trigger) {
			return true
		}
	}
	return false
}

var (
	twelveDigits = regexp.MustCompile(`^[0-9]{12}$`)
	tenDigits    = regexp.MustCompile(`^[0-9]{10}$`)
	panPattern   = regexp.MustCompile(`^[A-Z]{5}[0-9]{4}[A-Z]$`)
	upiPattern   = regexp.MustCompile(`^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9]{1,63}$`)
)

// check returns the first rule broken, in the order given.
func check(rules ...problem) problem {
	for _, r := range rules {
		if r != "" {
			return r
		}
	}
	return ""
}

func match(p params, name string, re *regexp.Regexp, what string) problem {
	if !re.MatchString(p[name]) {
		return problem(name + " must be " + what)
	}
	return ""
}

func required(p params, name string) problem {
	if strings.TrimSpace(p[name]) == "" {
		return problem(name + " is required")
	}
	return ""
}

type printJob struct {
	PrintID       string `json:"print_id"`
	Status        string `json:"status"`
	EstimatedTime string `json:"estimated_time"`
}

func aadhaarPrint(p params) (any, problem) {
	if bad := check(match(p, "aadhaar_number", twelveDigits, "12 digits"), required(p, "name"),
		match(p, "phone", tenDigits, "10 digits")); bad != "" {
		return nil, bad
	}
	id := "PRN" + digest(12, "aadhaar-print", p["aadhaar_number"], p["name"], p["phone"], p["address"])
	return printJob{PrintID: id, Status: "queued", EstimatedTime: "48 hours"}, ""
}

func panCardPrint(p params) (any, problem) {
	bad := check(match(p, "pan_number", panPattern, "10 characters: 5 letters, 4 digits, 1 letter"), required(p, "name"))
	if bad == "" {
		if _, err := time.Parse(time.DateOnly, p["dob"]); err != nil {
			bad = "dob must be a date as YYYY-MM-DD"
		}
	}
	if bad != "" {
		return nil, bad
	}
	id := "PRN" + digest(12, "pan-card-print", p["pan_number"], p["name"], p["dob"], p["father_name"])
	return printJob{PrintID: id, Status: "queued", EstimatedTime: "72 hours"}, ""
}

type smsReceipt struct {
	MessageID      string `json:"message_id"`
	Status         string `json:"status"`
	DeliveryStatus string `json:"delivery_status"`
}

func smsGateway(p params) (any, problem) {
	bad := check(match(p, "phone", tenDigits, "10 digits"), required(p, "message"), required(p, "template_id"))
	if bad == "" && utf8.RuneCountInString(p["message"]) > 160 {
		bad = "message must be at most 160 characters"
	}
	if bad != "" {
		return nil, bad
	}
	id := "MSG" + digest(16, "sms-gateway", p["phone"], p["message"], p["template_id"])
	return smsReceipt{MessageID: id, Status: "queued", DeliveryStatus: "pending"}, ""
}

type upiAccount struct {
	UPIID         string `json:"upi_id"`
	AccountHolder string `json:"account_holder"`
	BankName      string `json:"bank_name"`
	Verified      bool   `json:"verified"`
}

// banks by UPI handle; other handles get one of bankNames by hash.
var banks = map[string]string{
	"okaxis": "Axis Bank", "axl": "Axis Bank", "oksbi": "State Bank of India", "sbi": "State Bank of India",
	"okhdfcbank": "HDFC Bank", "hdfcbank": "HDFC Bank", "okicici": "ICICI Bank", "icici": "ICICI Bank",
	"ybl": "Yes Bank", "paytm": "Paytm Payments Bank", "kotak": "Kotak Mahindra Bank", "pnb": "Punjab National Bank",
}

var bankNames = []string{"State Bank of India", "HDFC Bank", "ICICI Bank", "Axis Bank", "Bank of Baroda", "Canara Bank"}

var holderNames = []string{"Aarav Sharma", "Priya Patel", "Rohan Gupta", "Ananya Iyer", "Vikram Singh", "Meera Nair"}

func upiVerification(p params) (any, problem) {
	if bad := check(required(p, "upi_id"), match(p, "upi_id", upiPattern, "a UPI id such as name@bank")); bad != "" {
		return nil, bad
	}
	id := p["upi_id"]
	local, handle, _ := strings.Cut(id, "@")
	bank, ok := banks[strings.ToLower(handle)]
	if !ok {
		bank = bankNames[pick(len(bankNames), "bank", handle)]
	}
	if strings.HasPrefix(strings.ToLower(local), "fail") {
		return upiAccount{UPIID: id, AccountHolder: "", BankName: bank, Verified: false}, ""
	}
	return upiAccount{UPIID: id, AccountHolder: holderName(local), BankName: bank, Verified: true}, ""
}

// holderName turns "rahul.sharma" into "Rahul Sharma"; a local part with
// no letters (a phone number) gets a name chosen by hash.
func holderName(local string) string {
	words := strings.FieldsFunc(local, func(r rune) bool { return r < 'A' || r > 'z' || (r > 'Z' && r < 'a') })
	var out []string
	for _, w := range words {
		if len(w) > 1 {
			out = append(out, strings.ToUpper(w[:1])+strings.ToLower(w[1:]))
		}
	}
	if len(out) == 0 {
		return holderNames[pick(len(holderNames), "holder", local)]
	}
	return strings.Join(out, " ")
}

// digest is n upper-case hex characters of the SHA-256 of parts.
func digest(n int, parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return strings.ToUpper(hex.EncodeToString(sum[:]))[:n]
}

func pick(n int, parts ...string) int {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return int(sum[0]) % n
}

func message(m string) map[string]string { return map[string]string{"message": m} }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
