package gst

// State is a State or Union territory with its GST state code, the first two
// digits of a GSTIN and the code printed beside the place of supply.
type State struct {
	Code string // "27"
	Name string // "Maharashtra"
}

// states are the codes in force, in code order. Two codes of the census
// list are left out because no registration uses them any more: 25 (Daman
// and Diu, merged into 26 on 26 January 2020) and 28 (Andhra Pradesh before
// 2014; the State has had 37 since then).
var states = []State{
	{"01", "Jammu and Kashmir"},
	{"02", "Himachal Pradesh"},
	{"03", "Punjab"},
	{"04", "Chandigarh"},
	{"05", "Uttarakhand"},
	{"06", "Haryana"},
	{"07", "Delhi"},
	{"08", "Rajasthan"},
	{"09", "Uttar Pradesh"},
	{"10", "Bihar"},
	{"11", "Sikkim"},
	{"12", "Arunachal Pradesh"},
	{"13", "Nagaland"},
	{"14", "Manipur"},
	{"15", "Mizoram"},
	{"16", "Tripura"},
	{"17", "Meghalaya"},
	{"18", "Assam"},
	{"19", "West Bengal"},
	{"20", "Jharkhand"},
	{"21", "Odisha"},
	{"22", "Chhattisgarh"},
	{"23", "Madhya Pradesh"},
	{"24", "Gujarat"},
	{"26", "Dadra and Nagar Haveli and Daman and Diu"},
	{"27", "Maharashtra"},
	{"29", "Karnataka"},
	{"30", "Goa"},
	{"31", "Lakshadweep"},
	{"32", "Kerala"},
	{"33", "Tamil Nadu"},
	{"34", "Puducherry"},
	{"35", "Andaman and Nicobar Islands"},
	{"36", "Telangana"},
	{"37", "Andhra Pradesh"},
	{"38", "Ladakh"},
	{"97", "Other Territory"},
}

// States lists the States and Union territories in code order, for pickers.
// The slice is the caller's own.
func States() []State { return append([]State(nil), states...) }

// StateName is the name of the State or Union territory with a GST state
// code ("27" → "Maharashtra"); ok false for a code not in force.
func StateName(code string) (name string, ok bool) {
	for _, s := range states {
		if s.Code == code {
			return s.Name, true
		}
	}
	return "", false
}
