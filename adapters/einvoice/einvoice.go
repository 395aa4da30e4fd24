// Package einvoice writes a document as the government's e-invoice JSON
// (INV-01, schema version 1.1; api/einvoice/einvoice-schema-1.1.json): the
// payload a supplier uploads to the invoice registration portal to get an
// IRN (docs/decisions.md, "Tax invoices, credit notes and statements").
// core/billing/invoice.ToEInvoice decides the content; this package only spells it
// in the schema's names, with amounts as JSON numbers of exactly two
// places (three for unit prices), never floats. It is an adapter because
// it is a wire format: a later connection to the portal (through a GST
// Suvidha Provider) sends these bytes.
package einvoice

import (
	"encoding/json"
	"strconv"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
)

// Document is the schema's top level.
type Document struct {
	Version    string `json:"Version"`
	TranDtls   tran   `json:"TranDtls"`
	DocDtls    doc    `json:"DocDtls"`
	SellerDtls party  `json:"SellerDtls"`
	BuyerDtls  party  `json:"BuyerDtls"`
	ItemList   []item `json:"ItemList"`
	ValDtls    values `json:"ValDtls"`
}

type tran struct {
	TaxSch      string `json:"TaxSch"`
	SupTyp      string `json:"SupTyp"`
	RegRev      string `json:"RegRev"`
	IgstOnIntra string `json:"IgstOnIntra"`
}

type doc struct {
	Typ string `json:"Typ"`
	No  string `json:"No"`
	Dt  string `json:"Dt"`
}

type party struct {
	Gstin string `json:"Gstin"`
	LglNm string `json:"LglNm"`
	Pos   string `json:"Pos,omitempty"` // the buyer's only
	Addr1 string `json:"Addr1"`
	Addr2 string `json:"Addr2,omitempty"`
	Loc   string `json:"Loc"`
	Pin   int    `json:"Pin,omitempty"`
	Stcd  string `json:"Stcd"`
	Em    string `json:"Em,omitempty"`
}

type item struct {
	SlNo       string      `json:"SlNo"`
	PrdDesc    string      `json:"PrdDesc"`
	IsServc    string      `json:"IsServc"`
	HsnCd      string      `json:"HsnCd"`
	Qty        json.Number `json:"Qty"`
	UnitPrice  json.Number `json:"UnitPrice"`
	TotAmt     json.Number `json:"TotAmt"`
	Discount   json.Number `json:"Discount"`
	AssAmt     json.Number `json:"AssAmt"`
	GstRt      json.Number `json:"GstRt"`
	IgstAmt    json.Number `json:"IgstAmt"`
	CgstAmt    json.Number `json:"CgstAmt"`
	SgstAmt    json.Number `json:"SgstAmt"`
	TotItemVal json.Number `json:"TotItemVal"`
}

type values struct {
	AssVal    json.Number `json:"AssVal"`
	CgstVal   json.Number `json:"CgstVal"`
	SgstVal   json.Number `json:"SgstVal"`
	IgstVal   json.Number `json:"IgstVal"`
	TotInvVal json.Number `json:"TotInvVal"`
}

func num2(d decimal.Decimal) json.Number { return json.Number(d.StringFixed(2)) }

// From is e in the schema's terms.
func From(e *invoice.EInvoice) Document {
	d := Document{Version: e.Version,
		TranDtls: tran{TaxSch: "GST", SupTyp: e.SupplyType, RegRev: "N", IgstOnIntra: "N"},
		DocDtls:  doc{Typ: e.DocType, No: e.Number, Dt: e.Date},
		SellerDtls: party{Gstin: e.Seller.GSTIN, LglNm: e.Seller.LegalName, Addr1: e.Seller.Addr1, Addr2: e.Seller.Addr2, Loc: e.Seller.Loc,
			Pin: e.Seller.PIN, Stcd: e.Seller.State},
		BuyerDtls: party{Gstin: e.Buyer.GSTIN, LglNm: e.Buyer.LegalName, Pos: e.PlaceOfSupply, Addr1: e.Buyer.Addr1, Addr2: e.Buyer.Addr2,
			Loc: e.Buyer.Loc, Pin: e.Buyer.PIN, Stcd: e.Buyer.State, Em: e.Buyer.Email},
		ItemList: []item{},
		ValDtls: values{AssVal: num2(e.Values.Taxable), CgstVal: num2(e.Values.CGST), SgstVal: num2(e.Values.SGST), IgstVal: num2(e.Values.IGST),
			TotInvVal: num2(e.Values.Total)},
	}
	for _, it := range e.Items {
		d.ItemList = append(d.ItemList, item{SlNo: strconv.Itoa(it.SlNo), PrdDesc: it.Description, IsServc: "Y", HsnCd: it.SAC,
			Qty: json.Number(strconv.FormatInt(it.Qty, 10)), UnitPrice: json.Number(it.UnitPrice.StringFixed(3)), TotAmt: num2(it.Total),
			Discount: "0.00", AssAmt: num2(it.Taxable), GstRt: num2(it.Rate), IgstAmt: num2(it.IGST), CgstAmt: num2(it.CGST),
			SgstAmt: num2(it.SGST), TotItemVal: num2(it.Gross)})
	}
	return d
}

// Marshal is e as the schema's JSON.
func Marshal(e *invoice.EInvoice) ([]byte, error) { return json.Marshal(From(e)) }
