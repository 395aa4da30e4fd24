package meteringstore

import "strings"

// The settlements' UPDATEs on MySQL give each hit of a chunk its own
// values. A CASE id WHEN … list is searched row by row, and MariaDB
// compares the BIGINT UNSIGNED id with signed literals as DECIMALs, which
// is costly with many hits per statement. perHit writes each column the
// cheapest way that still gives every hit its value (decisions:
// "Settlement statements without CASE searches").

// perHit maps a chunk's hit ids to the per-hit values of its UPDATE.
type perHit struct {
	ids []uint64
	min uint64
	// span: max-min+1 when the ids are dense enough for ELT (at most
	// twice their number, plus a little), else 0.
	span int
}

func newPerHit(ids []uint64) perHit {
	p := perHit{ids: ids}
	if len(ids) == 0 {
		return p
	}
	lo, hi := ids[0], ids[0]
	for _, id := range ids[1:] {
		lo, hi = min(lo, id), max(hi, id)
	}
	p.min = lo
	if span := hi - lo + 1; span <= uint64(2*len(ids)+16) {
		p.span = int(span)
	}
	return p
}

// set writes "col = <value of each hit>" into q, vals[i] being ids[i]'s:
//   - one parameter when every hit has the same value;
//   - ELT(id - (min-1), v…) when the ids are dense: the row's own value is
//     picked by position, NULL in the gaps (never read: the UPDATE's WHERE
//     holds only these ids);
//   - else CASE on the id as a signed integer, so the search compares
//     integers, not DECIMALs.
func (p perHit) set(q *strings.Builder, args []any, col string, vals []any) []any {
	q.WriteString(col)
	q.WriteString(" = ")
	if allSame(vals) {
		q.WriteByte('?')
		return append(args, vals[0])
	}
	if p.span > 0 {
		q.WriteString("ELT(id - ?")
		args = append(args, p.min-1)
		slots := make([]any, p.span)
		for i, id := range p.ids {
			slots[id-p.min] = vals[i]
		}
		for _, v := range slots {
			q.WriteString(",?")
			args = append(args, v)
		}
		q.WriteByte(')')
		return args
	}
	q.WriteString("CASE CAST(id AS SIGNED)")
	for i, id := range p.ids {
		q.WriteString(" WHEN ? THEN ?")
		args = append(args, int64(id), vals[i])
	}
	q.WriteString(" END")
	return args
}

// allSame reports whether every value is the same (pointers to strings
// compared by their text).
func allSame(vals []any) bool {
	for _, v := range vals[1:] {
		if !sameValue(v, vals[0]) {
			return false
		}
	}
	return true
}

func sameValue(a, b any) bool {
	as, aok := a.(*string)
	bs, bok := b.(*string)
	if aok || bok {
		return aok && bok && (as == nil) == (bs == nil) && (as == nil || *as == *bs)
	}
	return a == b
}
