package weather

import (
	"strconv"
	"strings"
	"time"
)

// weekdays are the Japanese weekday marks, Sunday first.
var weekdays = [...]string{"日", "月", "火", "水", "木", "金", "土"}

// popPeriods name Day.Pops' four periods.
var popPeriods = [...]string{"0-6時", "6-12時", "12-18時", "18-24時"}

// Text renders d as one Japanese paragraph for a post, e.g.
//
//	12月2日(水) 東京地方の天気は「晴時々曇」。最低気温 3℃ / 最高気温 12℃（東京）。
//	降水確率 0-6時 -、6-12時 10%、12-18時 20%、18-24時 10%。洗濯指数 4/5：洗濯日和。…
//
// A missing value is shown as "-", never 0.
func (d Day) Text() string {
	var b strings.Builder
	if t, err := time.ParseInLocation(dateLayout, d.Date, JST); err == nil {
		b.WriteString(strconv.Itoa(int(t.Month())) + "月" + strconv.Itoa(t.Day()) + "日(" + weekdays[t.Weekday()] + ") ")
	} else {
		b.WriteString(d.Date + " ")
	}
	b.WriteString(d.Area + "の天気は「" + d.Weather + "」。")
	b.WriteString("最低気温 " + temp(d.TempMin) + " / 最高気温 " + temp(d.TempMax))
	if d.Station != "" {
		b.WriteString("（" + d.Station + "）")
	}
	b.WriteString("。降水確率 ")
	for i, p := range d.Pops {
		if i > 0 {
			b.WriteString("、")
		}
		if i < len(popPeriods) {
			b.WriteString(popPeriods[i] + " ")
		}
		b.WriteString(pop(p))
	}
	b.WriteString("。洗濯指数 " + strconv.Itoa(d.LaundryIndex) + "/5：" + d.LaundryAdvice)
	return b.String()
}

func temp(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64) + "℃"
}

func pop(v *int) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(*v) + "%"
}
