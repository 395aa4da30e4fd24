// Package gst holds the rules of an Indian GST tax invoice that are plain
// arithmetic and formats, as pure functions (docs/decisions.md, "Tax
// invoices, credit notes and statements"). The use cases that issue
// invoices do the I/O around them.
//
// Tax. Prices include GST, so a line's gross amount is split: taxable value
// = gross ÷ (1 + rate/100), rounded half-up to the paisa, and tax = gross −
// taxable value, so taxable value + tax is exactly the gross the ledger
// moved (Split). When the place of supply (IGST Act, section 12) is in the
// supplier's state, the tax is CGST and SGST (UTGST in a Union territory),
// always equal: each half is the exact tax halved, rounded half-up, and the
// taxable value is gross − both halves (the odd paisa moves into the
// taxable value); otherwise it is all IGST, as Split gives it (Heads). Rate
// 0 is a bill of supply: no tax.
//
// Identifiers. A GSTIN, as GSTN issues it to a regular taxpayer, is 15
// characters: the 2-digit state code of the registration (States), the
// holder's 10-character PAN, the entity number (1-9, then A-Z, for the
// registrations of one PAN in one state), 'Z' and a check character,
// computed by GSTN's Luhn mod 36 over 0-9A-Z (GSTINProblem). A SAC is a
// 6-digit service code of chapter 99 of the GST tariff (SACProblem). The
// Problem functions return a message for errs.FieldErrors, or "".
//
// Documents. A tax invoice carries a consecutive serial number, unique for
// a financial year (April to March), of at most 16 characters, letters,
// digits, '-' and '/' only (CGST Rules, rule 46(b)); a credit note's number
// follows the same rule (rule 53), in a series of its own (FinancialYear,
// Number, PrefixProblem, CreditNotePrefix). The amount is also written in
// words in the Indian system of lakhs and crores (InWords).
package gst
