package main

import "testing"

// TestDayOfRowPutsTodayRowsOnToday: -today-rows puts exactly that many
// rows on today and spreads the rest over the other days, every row
// placed once; without it every day gets an equal share.
func TestDayOfRowPutsTodayRowsOnToday(t *testing.T) {
	for _, o := range []options{{rows: 1000, days: 31, todayRows: 700}, {rows: 1000, days: 31}, {rows: 95, days: 31, todayRows: 3}} {
		perDay := map[int]int{}
		for i := range o.rows {
			day, within, share := dayOfRow(o, i)
			if day < 0 || day >= o.days || within < 0 || within >= share {
				t.Fatalf("%+v row %d: day %d, %d of %d", o, i, day, within, share)
			}
			perDay[day]++
		}
		today := perDay[o.days-1]
		if o.todayRows > 0 && today != o.todayRows {
			t.Fatalf("%+v: %d rows today", o, today)
		}
		if o.todayRows == 0 && (today < o.rows/o.days || perDay[0] != o.rows/o.days) {
			t.Fatalf("%+v: %v", o, perDay)
		}
	}
}
