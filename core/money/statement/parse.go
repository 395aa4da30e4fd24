package statement

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Mapping names the statement's columns by their header text (case and
// surrounding spaces ignored); an empty field takes the first of its
// defaults found in the header.
type Mapping struct {
	Date, Narration, Ref, Credit, Debit, Balance string
}

// Default column names, most common first: the "Date, Narration, Ref No,
// Debit, Credit, Balance" export of Indian banks and its variants.
var defaultColumns = map[string][]string{
	"date":      {"date", "txn date", "transaction date", "value date", "value dt", "tran date", "posting date"},
	"narration": {"narration", "description", "particulars", "remarks", "transaction details", "details", "transaction remarks"},
	"ref":       {"ref no", "ref no.", "chq/ref no", "chq/ref no.", "chq./ref.no.", "cheque/ref no", "ref no./cheque no.", "reference", "reference no", "reference number", "utr", "utr no", "utr number", "transaction id", "chq no"},
	"credit":    {"credit", "credit amount", "deposit", "deposits", "deposit amt", "deposit amount", "deposit amt.", "cr", "credit amt", "credit (inr)", "credit(inr)"},
	"debit":     {"debit", "debit amount", "withdrawal", "withdrawals", "withdrawal amt", "withdrawal amt.", "withdrawal amount", "dr", "debit amt", "debit (inr)", "debit(inr)"},
	"balance":   {"balance", "closing balance", "balance (inr)", "balance(inr)", "running balance"},
}

// MaxHeaderSearch is how many leading rows may precede the header (bank
// exports start with the account holder, the period, …).
const MaxHeaderSearch = 40

// Parsed is a statement file read: its credit lines, in file order.
type Parsed struct {
	Lines   []Line
	Debits  int
	Skipped int
}

// columns is where each field sits in a record; -1 when absent.
type columns struct{ date, narration, ref, credit, debit, balance int }

// Parse reads a whole CSV statement with Reader's rules; an import reads
// it line by line with Reader instead.
func Parse(r io.Reader, m Mapping) (*Parsed, error) {
	sr, err := NewReader(r, m)
	if err != nil {
		return nil, err
	}
	out := &Parsed{}
	for {
		l, err := sr.Next()
		if errors.Is(err, io.EOF) {
			out.Debits, out.Skipped = sr.Debits, sr.Skipped
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out.Lines = append(out.Lines, l)
	}
}

// Reader reads a CSV statement one line at a time, so an import holds a
// line, not the file: the header row is the first of the leading rows
// naming the date and credit columns; each later row with a date and a
// positive credit is a credit line; a row with only a debit counts as a
// debit; anything else (a summary or footer, a blank row, a row the CSV
// reader cannot read) is skipped and counted. Amounts may carry Indian or
// Western digit grouping, a currency sign and a trailing "Cr".
type Reader struct {
	cr  *csv.Reader
	col columns
	// seen counts the credit lines read so far by content (a 64-bit hash
	// of it): the occurrence index that tells identical lines apart.
	seen    map[uint64]uint32
	Debits  int
	Skipped int
}

// NewReader reads up to the header row. Errors are 422 naming the field.
func NewReader(r io.Reader, m Mapping) (*Reader, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	cr.ReuseRecord = true
	var col columns
	found := false
	for i := 0; i < MaxHeaderSearch && !found; i++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if err != nil && !errors.As(err, &pe) {
			return nil, fmt.Errorf("read statement: %w", err)
		}
		if err != nil {
			return nil, fileError("is not a readable CSV file: " + err.Error())
		}
		var merr error
		col, found, merr = headerColumns(rec, m)
		if merr != nil {
			return nil, merr
		}
	}
	if !found {
		return nil, fileError("has no header row naming a date column and a credit column in its first 40 rows; name them with date_column and credit_column")
	}
	return &Reader{cr: cr, col: col, seen: map[uint64]uint32{}}, nil
}

// Next returns the next credit line; io.EOF after the last. An error
// reading the file (not its content) is returned wrapped.
func (sr *Reader) Next() (Line, error) {
	for {
		rec, err := sr.cr.Read()
		if errors.Is(err, io.EOF) {
			return Line{}, io.EOF
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				sr.Skipped++
				continue
			}
			return Line{}, fmt.Errorf("read statement: %w", err)
		}
		line, kind := parseRow(rec, sr.col)
		switch kind {
		case rowDebit:
			sr.Debits++
			continue
		case rowSkip:
			sr.Skipped++
			continue
		}
		line.LineNo = lineNo(sr.cr)
		base := strings.Join([]string{line.Date.Format(time.DateOnly), line.RefNo, inr.Format2(line.Amount), line.Narration, balanceText(line.Balance)}, "\x1f")
		bh := sha256.Sum256([]byte(base))
		id := binary.BigEndian.Uint64(bh[:8])
		n := sr.seen[id]
		sr.seen[id] = n + 1
		h := sha256.Sum256(fmt.Appendf(nil, "%s\x1f%d", base, n))
		line.Key = hex.EncodeToString(h[:])
		return line, nil
	}
}

func lineNo(cr *csv.Reader) int {
	l, _ := cr.FieldPos(0)
	return l
}

func balanceText(b *decimal.Decimal) string {
	if b == nil {
		return ""
	}
	return inr.Format2(*b)
}

func fileError(msg string) error {
	return errs.Validation(map[string][]string{"file": {msg}})
}

func norm(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.TrimPrefix(s, "\ufeff"))), " ")
}

// headerColumns locates the mapped columns in rec; found is false when rec
// is not the header. A column the mapping names that rec lacks is an error
// once rec has the other required ones.
func headerColumns(rec []string, m Mapping) (columns, bool, error) {
	idx := map[string]int{}
	for i, h := range rec {
		if k := norm(h); k != "" {
			if _, dup := idx[k]; !dup {
				idx[k] = i
			}
		}
	}
	find := func(given, field string) int {
		if given != "" {
			if i, ok := idx[norm(given)]; ok {
				return i
			}
			return -1
		}
		for _, name := range defaultColumns[field] {
			if i, ok := idx[name]; ok {
				return i
			}
		}
		return -1
	}
	c := columns{date: find(m.Date, "date"), narration: find(m.Narration, "narration"), ref: find(m.Ref, "ref"),
		credit: find(m.Credit, "credit"), debit: find(m.Debit, "debit"), balance: find(m.Balance, "balance")}
	if c.date < 0 || c.credit < 0 {
		return c, false, nil
	}
	fe := errs.FieldErrors{}
	for _, g := range []struct {
		given, field string
		at           int
	}{{m.Narration, "narration_column", c.narration}, {m.Ref, "ref_column", c.ref}, {m.Debit, "debit_column", c.debit}, {m.Balance, "balance_column", c.balance}} {
		if g.given != "" && g.at < 0 {
			fe.Add(g.field, fmt.Sprintf("no column named %q in the header", g.given))
		}
	}
	if c.narration < 0 && c.ref < 0 {
		fe.Add("file", "the header names neither a narration nor a reference column; name one with narration_column or ref_column")
	}
	return c, true, fe.Err()
}

type rowKind int

const (
	rowCredit rowKind = iota
	rowDebit
	rowSkip
)

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return strings.TrimSpace(rec[i])
}

// parseRow reads one record: a credit line, a debit, or a row to skip.
func parseRow(rec []string, c columns) (Line, rowKind) {
	date, ok := ParseDate(cell(rec, c.date))
	if !ok {
		return Line{}, rowSkip
	}
	credit, ok := ParseAmount(cell(rec, c.credit))
	if !ok || !credit.IsPositive() {
		if d, ok := ParseAmount(cell(rec, c.debit)); ok && d.IsPositive() {
			return Line{}, rowDebit
		}
		return Line{}, rowSkip
	}
	if !inr.FitsColumn(credit, 12, 2) {
		return Line{}, rowSkip
	}
	l := Line{Date: date, Amount: credit, Status: StatusUnmatched,
		Narration: clip(cell(rec, c.narration), 500), RefNo: clip(cell(rec, c.ref), 100)}
	if b, ok := ParseAmount(cell(rec, c.balance)); ok && inr.FitsColumn(b, 16, 2) {
		l.Balance = &b
	}
	l.UTR = UTROf(l.RefNo, l.Narration)
	l.PayIDs = PaymentIDsIn(l.RefNo + " " + l.Narration)
	return l, rowCredit
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// ParseAmount reads a statement amount: "1,00,000.00", "100,000.00",
// "₹ 2,500", "2500.00 Cr", "INR 10". Blank, "-" and negative amounts are not
// amounts (false).
func ParseAmount(s string) (decimal.Decimal, bool) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"₹", "INR", "Rs.", "Rs"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	for _, suf := range []string{"Cr", "CR", "cr", "Cr.", "CR."} {
		s = strings.TrimSpace(strings.TrimSuffix(s, suf))
	}
	s = strings.ReplaceAll(s, ",", "")
	if s == "" || s == "-" || strings.HasPrefix(s, "-") {
		return decimal.Decimal{}, false
	}
	d, ok := inr.Parse(s, 2)
	return d, ok && !d.IsNegative()
}

var dateLayouts = []string{"02/01/2006", "02-01-2006", "2006-01-02", "02/01/06", "02-01-06", "02 Jan 2006", "02-Jan-2006",
	"02-Jan-06", "02 Jan 06", "2 Jan 2006", "02.01.2006", "2006/01/02", "02/Jan/2006", "Jan 02, 2006", "02 January 2006"}

// ParseDate reads a statement date (day first, as Indian banks print it),
// ignoring a time part.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if f := strings.Fields(s); len(f) > 1 && strings.Contains(f[len(f)-1], ":") {
		s = strings.Join(f[:len(f)-1], " ")
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil && t.Year() >= 2000 && t.Year() < 2200 {
			return t, true
		}
	}
	return time.Time{}, false
}

var (
	twelveDigits = regexp.MustCompile(`(?:^|[^0-9])([0-9]{12})(?:[^0-9]|$)`)
	payIDPattern = regexp.MustCompile(`(?i)pay_[0-9A-HJKMNP-TV-Z]{26}`)
	utrClean     = regexp.MustCompile(`^[A-Z0-9-]{6,50}$`)
)

// UTROf is the reference a line is matched by: its reference column,
// upper-cased, when it looks like a bank reference (a zero-padded UPI
// reference loses its padding); else the first 12-digit number of the
// narration (UPI narrations read "UPI/412345678901/…").
func UTROf(ref, narration string) string {
	r := strings.ToUpper(strings.Join(strings.Fields(ref), ""))
	if len(r) > 12 && strings.Trim(r[:len(r)-12], "0") == "" && isDigits(r[len(r)-12:]) {
		r = r[len(r)-12:]
	}
	if utrClean.MatchString(r) && strings.Trim(r, "0") != "" {
		return r
	}
	if m := twelveDigits.FindStringSubmatch(narration); m != nil {
		return m[1]
	}
	return ""
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// PaymentIDsIn finds payment ids (pay_ + ULID) in s, as a bank may carry
// the UPI tr or note in its narration (often upper-cased).
func PaymentIDsIn(s string) []string {
	var out []string
	for _, m := range payIDPattern.FindAllString(s, 3) {
		out = append(out, "pay_"+strings.ToUpper(m[4:]))
	}
	return out
}
