package weather

import "strings"

// Laundry computes playchat's own laundry index (洗濯指数, 1–5) for a day
// from its weather code, pops and maximum temperature, and a one-line
// Japanese advice. It is NOT JMA's (JMA publishes no laundry index) nor
// tenki.jp's; the rule, in order:
//
//  1. Base by the weather code's hundreds: 1xx (晴) 5, 2xx (曇) 3, 3xx/4xx
//     (雨・雪) 1 and final (a rain or snow day stays 1), anything else 3.
//     A 1xx or 2xx code whose name mentions 雨, 雪 or 雷 (e.g. 曇時々雨,
//     晴一時雪) is one lower.
//  2. The daytime pop p = the larger of the 06–12 and 12–18 pops (when both
//     are missing, the largest pop of the day; when none, no change):
//     p ≥ 70% makes the index 1 (final); p ≥ 50% lowers it by 2; p ≥ 40% by 1.
//  3. The maximum temperature: ≥ 25 °C raises it by 1 (washing dries fast);
//     < 5 °C lowers it by 1; missing, no change.
//  4. The result is clamped to 1–5.
func Laundry(d Day) (int, string) {
	n := laundryIndex(d)
	return n, laundryAdvice[n]
}

// laundryAdvice is the one-line advice per index.
var laundryAdvice = map[int]string{
	1: "部屋干しがおすすめ。外干しは見送りましょう。",
	2: "外干しは控えめに。乾きにくいので部屋干しも考えて。",
	3: "外干しはできますが、乾きはいまひとつ。早めに取り込みましょう。",
	4: "洗濯日和。外干しでよく乾きそうです。",
	5: "絶好の洗濯日和。厚手のものもしっかり乾きそうです。",
}

func laundryIndex(d Day) int {
	code := d.WeatherCode
	n := 3
	if code != "" {
		switch code[0] {
		case '1':
			n = 5
		case '2':
			n = 3
		case '3', '4':
			return 1
		}
		if code[0] == '1' || code[0] == '2' {
			name := d.Weather
			if t, ok := telops[code]; ok {
				name = t
			}
			if strings.ContainsAny(name, "雨雪雷") {
				n--
			}
		}
	}
	if p := daytimePop(d.Pops); p != nil {
		switch {
		case *p >= 70:
			return 1
		case *p >= 50:
			n -= 2
		case *p >= 40:
			n--
		}
	}
	if d.TempMax != nil {
		switch {
		case *d.TempMax >= 25:
			n++
		case *d.TempMax < 5:
			n--
		}
	}
	return min(max(n, 1), 5)
}

// daytimePop is the larger of the 06–12 and 12–18 pops, else the largest
// pop of the day, else nil.
func daytimePop(pops []*int) *int {
	pick := func(idx ...int) *int {
		var best *int
		for _, i := range idx {
			if i < len(pops) && pops[i] != nil && (best == nil || *pops[i] > *best) {
				best = pops[i]
			}
		}
		return best
	}
	if p := pick(1, 2); p != nil {
		return p
	}
	return pick(0, 1, 2, 3)
}
