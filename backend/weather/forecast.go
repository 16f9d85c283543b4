// Package weather reads the Japan Meteorological Agency's (JMA, 気象庁)
// forecast documents (https://www.jma.go.jp/bosai/forecast/data/forecast/<office>.json)
// and turns them into tomorrow's forecast for one area, with playchat's own
// laundry index (洗濯指数). Service fetches them politely (timeout, a
// User-Agent, a cache per office); Parse and Forecast work on a saved
// document. docs/weather.md describes the rules.
package weather

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"playchat/backend/apperr"
)

// JST is Japan Standard Time (UTC+9, no daylight saving time): the zone of
// every JMA time and of "tomorrow".
var JST = time.FixedZone("JST", 9*60*60)

// dateLayout is the form of Day.Date.
const dateLayout = "2006-01-02"

// Area is one forecast area of an office (a JMA "class10" area such as
// 東京地方, code 130010).
type Area struct {
	Name string `json:"name"`
	Code string `json:"code"`
}

// Day is the forecast for one date and one area.
type Day struct {
	// Date is the day in JST, YYYY-MM-DD.
	Date string `json:"date"`
	// Area and AreaCode name the forecast area (e.g. 東京地方, 130010).
	Area     string `json:"area"`
	AreaCode string `json:"areaCode"`
	// WeatherCode is JMA's weather code (e.g. "101"); Weather its Japanese
	// text: the name in playchat's table, else the document's own text with
	// full-width spaces normalised, else "天気コード NNN".
	WeatherCode string `json:"weatherCode"`
	Weather     string `json:"weather"`
	// TempMin and TempMax are the day's minimum and maximum temperatures in
	// °C at the area's city (Station); nil when the document has no value.
	TempMin *float64 `json:"tempMin"`
	TempMax *float64 `json:"tempMax"`
	// Station is the city (JMA observation point) the temperatures are for,
	// "" when there is none.
	Station string `json:"station"`
	// Pops are the probabilities of precipitation (降水確率, %) of the day's
	// four 6-hour periods in order (00–06, 06–12, 12–18, 18–24 JST); nil
	// where the document has no value (a past period, or "").
	Pops []*int `json:"pops"`
	// LaundryIndex is playchat's own laundry index (洗濯指数), 1 (dry
	// indoors) to 5 (a perfect day to hang washing out); see Laundry.
	LaundryIndex int `json:"laundryIndex"`
	// LaundryAdvice is a one-line Japanese advice for LaundryIndex.
	LaundryAdvice string `json:"laundryAdvice"`
}

// Forecast is one parsed JMA forecast document: the short-term block (the
// first element: weather for 2–3 days, 6-hour pops, city temperatures) and
// the weekly block (the second element, when present).
type Forecast struct {
	// Office is the publishing office (publishingOffice, e.g. 気象庁).
	Office string
	// Report is the short-term block's reportDatetime, in JST.
	Report time.Time
	// Areas are the short-term block's forecast areas in document order.
	Areas []Area

	weather, pops, temps *series // short-term block
	weekly, weeklyTemps  *series // weekly block
}

type rawArea struct {
	Area struct {
		Name string `json:"name"`
		Code string `json:"code"`
	} `json:"area"`
	WeatherCodes []string `json:"weatherCodes"`
	Weathers     []string `json:"weathers"`
	Pops         []string `json:"pops"`
	Temps        []string `json:"temps"`
	TempsMin     []string `json:"tempsMin"`
	TempsMax     []string `json:"tempsMax"`
}

type rawSeries struct {
	TimeDefines []string  `json:"timeDefines"`
	Areas       []rawArea `json:"areas"`
}

type rawBlock struct {
	PublishingOffice string      `json:"publishingOffice"`
	ReportDatetime   string      `json:"reportDatetime"`
	TimeSeries       []rawSeries `json:"timeSeries"`
}

// series is one timeSeries with its times parsed (JST).
type series struct {
	times []time.Time
	areas []rawArea
}

// area returns the series' area with that code, or nil.
func (s *series) area(code string) *rawArea {
	if s == nil {
		return nil
	}
	for i := range s.areas {
		if s.areas[i].Area.Code == code {
			return &s.areas[i]
		}
	}
	return nil
}

// indexes returns the positions of the series' times that fall on date.
func (s *series) indexes(date string) []int {
	if s == nil {
		return nil
	}
	var out []int
	for i, t := range s.times {
		if t.Format(dateLayout) == date {
			out = append(out, i)
		}
	}
	return out
}

func badDocument(format string, a ...any) error {
	return apperr.New(apperr.WeatherBadDocument, map[string]any{"detail": fmt.Sprintf(format, a...)})
}

// Parse reads a JMA forecast document (the JSON array of
// https://www.jma.go.jp/bosai/forecast/data/forecast/<office>.json). The
// time series are told apart by what they hold (weatherCodes, pops, temps;
// tempsMin/tempsMax in the weekly block), not by their position. Any other
// document (e.g. an overview_forecast object) is a weather.badDocument error.
func Parse(doc []byte) (Forecast, error) {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || doc[0] != '[' {
		if len(doc) > 0 && doc[0] == '{' {
			return Forecast{}, badDocument("a JSON object, not the array of a forecast document (an overview_forecast document?)")
		}
		return Forecast{}, badDocument("not a JSON array")
	}
	var blocks []rawBlock
	if err := json.Unmarshal(doc, &blocks); err != nil {
		return Forecast{}, badDocument("%v", err)
	}
	if len(blocks) == 0 {
		return Forecast{}, badDocument("an empty array")
	}
	report, err := parseTime(blocks[0].ReportDatetime)
	if err != nil {
		return Forecast{}, badDocument("reportDatetime %q: %v", blocks[0].ReportDatetime, err)
	}
	f := Forecast{Office: blocks[0].PublishingOffice, Report: report}
	for _, rs := range blocks[0].TimeSeries {
		s, err := newSeries(rs)
		if err != nil {
			return Forecast{}, err
		}
		switch {
		case has(rs, func(a rawArea) []string { return a.WeatherCodes }):
			if f.weather == nil {
				f.weather = s
			}
		case has(rs, func(a rawArea) []string { return a.Pops }):
			if f.pops == nil {
				f.pops = s
			}
		case has(rs, func(a rawArea) []string { return a.Temps }):
			if f.temps == nil {
				f.temps = s
			}
		}
	}
	if f.weather == nil || len(f.weather.areas) == 0 {
		return Forecast{}, badDocument("the first block has no weatherCodes")
	}
	for _, a := range f.weather.areas {
		f.Areas = append(f.Areas, Area{Name: a.Area.Name, Code: a.Area.Code})
	}
	if len(blocks) > 1 {
		for _, rs := range blocks[1].TimeSeries {
			s, err := newSeries(rs)
			if err != nil {
				return Forecast{}, err
			}
			switch {
			case has(rs, func(a rawArea) []string { return a.WeatherCodes }):
				if f.weekly == nil {
					f.weekly = s
				}
			case has(rs, func(a rawArea) []string { return a.TempsMin }), has(rs, func(a rawArea) []string { return a.TempsMax }):
				if f.weeklyTemps == nil {
					f.weeklyTemps = s
				}
			}
		}
	}
	return f, nil
}

func has(rs rawSeries, field func(rawArea) []string) bool {
	for _, a := range rs.Areas {
		if field(a) != nil {
			return true
		}
	}
	return false
}

func newSeries(rs rawSeries) (*series, error) {
	s := &series{areas: rs.Areas}
	for _, d := range rs.TimeDefines {
		t, err := parseTime(d)
		if err != nil {
			return nil, badDocument("timeDefines %q: %v", d, err)
		}
		s.times = append(s.times, t)
	}
	return s, nil
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.In(JST), nil
}

// at returns v[i], or "" when v is shorter.
func at(v []string, i int) string {
	if i < len(v) {
		return strings.TrimSpace(v[i])
	}
	return ""
}

// number parses a JMA value; "" (no value) and anything unreadable are nil,
// never 0.
func number(s string) *float64 {
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &f
}

func percent(s string) *int {
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &n
}

// ReportDate is the date (JST, YYYY-MM-DD) of the document's reportDatetime:
// "today" for the document.
func (f Forecast) ReportDate() string { return f.Report.Format(dateLayout) }

// Tomorrow returns the forecast for the day after the document's
// reportDatetime (JST) in area (a name or a code; "" = the first area).
func (f Forecast) Tomorrow(area string) (Day, error) {
	return f.DayFor(area, f.Report.AddDate(0, 0, 1).Format(dateLayout))
}

// Today returns the forecast for the date of the document's reportDatetime.
func (f Forecast) Today(area string) (Day, error) {
	return f.DayFor(area, f.ReportDate())
}

// FindArea resolves a name or a code ("" = the first area) to one of the
// short-term block's areas. An unknown one is a weather.unknownArea error
// that lists the choices.
func (f Forecast) FindArea(area string) (Area, error) {
	area = strings.TrimSpace(area)
	if len(f.Areas) == 0 {
		return Area{}, badDocument("the document has no forecast areas")
	}
	if area == "" {
		return f.Areas[0], nil
	}
	for _, a := range f.Areas {
		if a.Code == area || a.Name == area {
			return a, nil
		}
	}
	choices := make([]string, len(f.Areas))
	for i, a := range f.Areas {
		choices[i] = a.Name + " (" + a.Code + ")"
	}
	return Area{}, apperr.New(apperr.WeatherUnknownArea, map[string]any{
		"office": f.officeCode(), "area": area, "choices": strings.Join(choices, ", ")})
}

// officeCode guesses the office code from the first area code (130010 →
// 130000) for messages.
func (f Forecast) officeCode() string {
	if len(f.Areas) > 0 && len(f.Areas[0].Code) == 6 {
		return f.Areas[0].Code[:4] + "00"
	}
	return f.Office
}

// DayFor returns the forecast for date (YYYY-MM-DD, JST) in area (a name
// or a code; "" = the first area):
//
//   - weather: the short-term block's weatherCodes at the time on that date;
//     else the weekly block's, matched by date and by area.code (or, when the
//     weekly block merges areas, by a weekly area whose name contains the
//     area's, e.g. 中通り → 中通り・浜通り), never by array position;
//   - pops: the short-term 6-hour pops on that date, put in their period by
//     the hour of their timeDefine; "" or a past period is nil;
//   - temperatures: see temperatures.
//
// A date neither block covers is a weather.noDay error.
func (f Forecast) DayFor(area, date string) (Day, error) {
	a, err := f.FindArea(area)
	if err != nil {
		return Day{}, err
	}
	d := Day{Date: date, Area: a.Name, AreaCode: a.Code, Pops: make([]*int, 4)}
	if !f.weatherOn(a, date, &d) {
		return Day{}, apperr.New(apperr.WeatherNoDay, map[string]any{"date": date, "area": a.Name})
	}
	if ra := f.pops.area(a.Code); ra != nil {
		for _, i := range f.pops.indexes(date) {
			if slot := f.pops.times[i].Hour() / 6; slot < 4 {
				d.Pops[slot] = percent(at(ra.Pops, i))
			}
		}
	}
	d.Station, d.TempMin, d.TempMax = f.temperatures(a, date)
	d.LaundryIndex, d.LaundryAdvice = Laundry(d)
	return d, nil
}

// weatherOn fills d's weather code and text for date; false when neither
// block has one.
func (f Forecast) weatherOn(a Area, date string, d *Day) bool {
	if ra := f.weather.area(a.Code); ra != nil {
		for _, i := range f.weather.indexes(date) {
			if code := at(ra.WeatherCodes, i); code != "" {
				d.WeatherCode = code
				d.Weather = describe(code, at(ra.Weathers, i))
				return true
			}
		}
	}
	ra := f.weekly.area(a.Code)
	if ra == nil && f.weekly != nil {
		for i := range f.weekly.areas {
			if w := f.weekly.areas[i].Area.Name; strings.Contains(w, a.Name) || strings.Contains(a.Name, w) {
				ra = &f.weekly.areas[i]
				break
			}
		}
	}
	if ra != nil {
		for _, i := range f.weekly.indexes(date) {
			if code := at(ra.WeatherCodes, i); code != "" {
				d.WeatherCode = code
				d.Weather = describe(code, "")
				return true
			}
		}
	}
	return false
}

// describe names a weather code: playchat's table, else the document's
// text with its full-width spaces normalised, else "天気コード NNN".
func describe(code, text string) string {
	if t, ok := telops[code]; ok {
		return t
	}
	if t := normaliseText(text); t != "" {
		return t
	}
	return "天気コード " + code
}

// temperatures returns the city and the minimum and maximum for date:
//
//  1. the short-term block's temps of the area's city: a value whose
//     timeDefine is 09:00 is that day's maximum, one at 00:00 is that day's
//     minimum — except a 00:00 value on the report's own date, which is not a
//     minimum (the night is over; the 05:00 and 11:00 releases repeat the
//     day's maximum there) and is ignored. So the 05:00/11:00 releases'
//     4 values are today's max (twice), tomorrow's min and max; the 17:00
//     release's 2 values are tomorrow's min and max.
//  2. for a value still missing, the weekly block's tempsMin/tempsMax of the
//     same city, matched by date and by area.code.
//
// The city is the area's representative station when playchat knows it
// (stations), else a city whose name is part of the area's name or the
// reverse (久米島), else the first city of the office. "" is never 0.
func (f Forecast) temperatures(a Area, date string) (station string, lo, hi *float64) {
	src := f.temps
	if src == nil || len(src.areas) == 0 {
		src = f.weeklyTemps
	}
	city := cityFor(a, src)
	if city == nil {
		return "", nil, nil
	}
	station = city.Area.Name
	if ra := f.temps.area(city.Area.Code); ra != nil {
		for _, i := range f.temps.indexes(date) {
			v := number(at(ra.Temps, i))
			switch f.temps.times[i].Hour() {
			case 9:
				if hi == nil {
					hi = v
				}
			case 0:
				if date != f.ReportDate() && lo == nil {
					lo = v
				}
			}
		}
	}
	if ra := f.weeklyTemps.area(city.Area.Code); ra != nil && (lo == nil || hi == nil) {
		for _, i := range f.weeklyTemps.indexes(date) {
			if lo == nil {
				lo = number(at(ra.TempsMin, i))
			}
			if hi == nil {
				hi = number(at(ra.TempsMax, i))
			}
		}
	}
	return station, lo, hi
}

// cityFor picks the temperature city of area a among s's areas.
func cityFor(a Area, s *series) *rawArea {
	if s == nil || len(s.areas) == 0 {
		return nil
	}
	if code, ok := stations[a.Code]; ok {
		if ra := s.area(code); ra != nil {
			return ra
		}
	}
	short := strings.TrimSuffix(a.Name, "地方")
	for i := range s.areas {
		n := s.areas[i].Area.Name
		if n != "" && (strings.Contains(a.Name, n) || strings.Contains(n, short)) {
			return &s.areas[i]
		}
	}
	return &s.areas[0]
}

// stations maps a forecast area (class10 code) to the JMA observation
// point (AMeDAS station code) whose temperatures the forecast page shows
// for it. It covers the offices of the test documents and a few large
// cities; other areas use the name rule or the office's first city.
var stations = map[string]string{
	"011000": "11016", // 宗谷地方 → 稚内
	"016010": "14163", // 石狩地方 → 札幌
	"040010": "34392", // 宮城県東部 → 仙台
	"070010": "36127", // 中通り → 福島
	"070020": "36846", // 浜通り → 小名浜
	"070030": "36361", // 会津 → 若松
	"130010": "44132", // 東京地方 → 東京
	"130020": "44172", // 伊豆諸島北部 → 大島
	"130030": "44263", // 伊豆諸島南部 → 八丈島
	"130040": "44301", // 小笠原諸島 → 父島
	"140010": "46106", // 神奈川県東部 → 横浜
	"200010": "48156", // 長野県北部 → 長野
	"200020": "48361", // 長野県中部 → 松本
	"200030": "48767", // 長野県南部 → 飯田
	"230010": "47636", // 愛知県西部 → 名古屋
	"260010": "61286", // 京都府南部 → 京都
	"270000": "62078", // 大阪府 → 大阪
	"340010": "67437", // 広島県南部 → 広島
	"400010": "82807", // 福岡地方 → 福岡
	"460010": "88317", // 薩摩地方 → 鹿児島
	"460020": "88442", // 大隅地方 → 鹿屋
	"460030": "88612", // 種子島・屋久島地方 → 種子島
	"460040": "88836", // 奄美地方 → 名瀬
	"471010": "91197", // 本島中南部 → 那覇
	"471020": "91107", // 本島北部 → 名護
	"471030": "91146", // 久米島 → 久米島
}
