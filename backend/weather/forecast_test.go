package weather

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/internal/testcorpus"
)

// fixturesDir returns the JMA forecast documents (testcorpus.JMADir).
func fixturesDir(t testing.TB) string { return testcorpus.JMADir(t) }

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parseFixture(t testing.TB, name string) Forecast {
	t.Helper()
	f, err := Parse(readFixture(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// fmtTemp and fmtPops write values as the tests expect them: "nil" for a
// missing temperature, "-" for a missing pop.
func fmtTemp(v *float64) string {
	if v == nil {
		return "nil"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func fmtPops(ps []*int) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if p == nil {
			out[i] = "-"
		} else {
			out[i] = strconv.Itoa(*p)
		}
	}
	return strings.Join(out, ",")
}

// want is one expected day, worked out by reading the JSON by hand.
type want struct {
	date, code, weather, min, max, pops, station string
	laundry                                      int // 0: not checked
}

func checkDay(t *testing.T, label string, d Day, w want) {
	t.Helper()
	got := want{date: d.Date, code: d.WeatherCode, min: fmtTemp(d.TempMin), max: fmtTemp(d.TempMax), pops: fmtPops(d.Pops)}
	if w.weather != "" {
		got.weather = d.Weather
	}
	if w.station != "" {
		got.station = d.Station
	}
	if w.laundry != 0 {
		got.laundry = d.LaundryIndex
	}
	if got != w {
		t.Errorf("%s:\n got %+v\nwant %+v", label, got, w)
	}
}

// fixtureCase is the expected today and tomorrow (relative to the
// document's reportDatetime) of one fixture and area.
type fixtureCase struct {
	file, area      string
	today, tomorrow want
}

// The release shapes: 05:00 (timeSeries[0] covers today and tomorrow, pops
// start at 06:00, temps = today's max twice, tomorrow's min and max),
// 11:00 (3 days, pops start at 12:00, 4 temps like 05:00) and 17:00
// (3 days, pops start at 18:00, temps = tomorrow's min and max only).
var fixtureCases = []fixtureCase{
	// Fukushima, 05:00 release; the weekly block is from the previous evening and starts today with "".
	{"forecast-fukushima-070000-20220221-0753.json", "",
		want{date: "2022-02-21", code: "205", min: "nil", max: "1", pops: "-,30,40,20"},
		want{date: "2022-02-22", code: "201", weather: "曇時々晴", min: "-2", max: "2", pops: "20,20,30,30", station: "福島", laundry: 2}},
	// Fukushima, 17:00 release (fetched 00:08): today's temperatures are gone.
	{"forecast-fukushima-070000-20220222-0008.json", "",
		want{date: "2022-02-21", code: "205", min: "nil", max: "nil", pops: "-,-,-,50"},
		want{date: "2022-02-22", code: "204", weather: "曇一時雪", min: "-3", max: "1", pops: "50,30,20,30", station: "福島", laundry: 1}},
	// Fukushima, 11:00 release.
	{"forecast-fukushima-070000-20220222-1117.json", "中通り",
		want{date: "2022-02-22", code: "200", min: "nil", max: "1", pops: "-,-,20,30"},
		want{date: "2022-02-23", code: "210", weather: "曇後時々晴", min: "-3", max: "3", pops: "30,20,10,10", station: "福島", laundry: 2}},
	// Fukushima, 05:00 release, the first area and 会津 (its own city 若松, snow).
	{"forecast-fukushima-070000-20220223-0501.json", "070010",
		want{date: "2022-02-23", code: "210", min: "nil", max: "2", pops: "-,30,10,10"},
		want{date: "2022-02-24", code: "210", min: "-3", max: "4", pops: "20,20,10,20", station: "福島", laundry: 2}},
	{"forecast-fukushima-070000-20220223-0501.json", "会津",
		want{date: "2022-02-23", code: "402", min: "nil", max: "0", pops: "-,60,50,50"},
		want{date: "2022-02-24", code: "205", weather: "曇時々雪", min: "-5", max: "2", pops: "50,50,40,50", station: "若松", laundry: 1}},
	// Nagano, an 08:00 update of the 05:00 shape; 南部's city is 飯田 (not the third city, 諏訪).
	{"forecast-nagano-200000-20220225-0846.json", "",
		want{date: "2022-02-25", code: "101", min: "nil", max: "5", pops: "-,20,20,10"},
		want{date: "2022-02-26", code: "100", weather: "晴", min: "-6", max: "9", pops: "10,0,0,10", station: "長野", laundry: 5}},
	{"forecast-nagano-200000-20220225-0846.json", "南部",
		want{date: "2022-02-25", code: "101", min: "nil", max: "8", pops: "-,0,10,0"},
		want{date: "2022-02-26", code: "100", min: "-5", max: "10", pops: "0,0,0,10", station: "飯田", laundry: 5}},
	// Tokyo, 05:00 release.
	{"forecast-tokyo-130000-20220221-0754.json", "",
		want{date: "2022-02-21", code: "100", min: "nil", max: "10", pops: "-,0,0,0"},
		want{date: "2022-02-22", code: "100", weather: "晴", min: "0", max: "9", pops: "0,0,10,0", station: "東京", laundry: 5}},
	// Tokyo, a 20:00 update of the 17:00 shape (timeSeries[0] still starts at 17:00).
	{"forecast-tokyo-130000-20220222-0010.json", "",
		want{date: "2022-02-21", code: "100", min: "nil", max: "nil", pops: "-,-,-,0"},
		want{date: "2022-02-22", code: "110", weather: "晴後時々曇", min: "-1", max: "9", pops: "0,10,10,0", station: "東京", laundry: 5}},
	// Tokyo, 05:00 release; the weekly block is still from the previous evening.
	{"forecast-tokyo-130000-20220222-0827.json", "",
		want{date: "2022-02-22", code: "101", min: "nil", max: "10", pops: "-,10,20,0"},
		want{date: "2022-02-23", code: "110", min: "0", max: "9", pops: "0,0,10,10", station: "東京", laundry: 5}},
	// Tokyo, 17:00 release: temps has only tomorrow's min and max.
	{"forecast-tokyo-130000-20220222-2212.json", "",
		want{date: "2022-02-22", code: "101", min: "nil", max: "nil", pops: "-,-,-,10"},
		want{date: "2022-02-23", code: "111", weather: "晴後曇", min: "-1", max: "9", pops: "0,0,10,10", station: "東京", laundry: 5}},
	{"forecast-tokyo-130000-20220222-2212.json", "小笠原諸島",
		want{date: "2022-02-22", code: "101", min: "nil", max: "nil", pops: "-,-,-,10"},
		want{date: "2022-02-23", code: "201", min: "14", max: "19", pops: "10,10,10,10", station: "父島", laundry: 3}},
	// 11:00 releases of four offices (otiai10/jma).
	{"otiai10-forecast-011000.json", "",
		want{date: "2021-07-24", code: "101", min: "nil", max: "28", pops: "-,-,0,0"},
		want{date: "2021-07-25", code: "101", weather: "晴時々曇", min: "23", max: "28", pops: "0,0,0,0", station: "稚内", laundry: 5}},
	{"otiai10-forecast-130000.json", "",
		want{date: "2021-07-24", code: "201", min: "nil", max: "33", pops: "-,-,30,30"},
		want{date: "2021-07-25", code: "201", weather: "曇時々晴", min: "25", max: "32", pops: "0,0,10,20", station: "東京", laundry: 4}},
	{"otiai10-forecast-460100.json", "",
		want{date: "2021-07-24", code: "200", min: "nil", max: "32", pops: "-,-,20,30"},
		want{date: "2021-07-25", code: "200", weather: "曇", min: "27", max: "31", pops: "30,30,30,20", station: "鹿児島", laundry: 4}},
	{"otiai10-forecast-460100.json", "大隅地方",
		want{date: "2021-07-24", code: "203", min: "nil", max: "30", pops: "-,-,50,50"},
		want{date: "2021-07-25", code: "203", weather: "曇時々雨", min: "25", max: "29", pops: "50,50,50,30", station: "鹿屋", laundry: 1}},
	{"otiai10-forecast-460100.json", "460040",
		want{date: "2021-07-24", code: "302", min: "nil", max: "30", pops: "-,-,80,70"},
		want{date: "2021-07-25", code: "302", weather: "雨時々止む", min: "26", max: "29", pops: "70,60,60,40", station: "名瀬", laundry: 1}},
	{"otiai10-forecast-471000.json", "",
		want{date: "2021-07-24", code: "302", min: "nil", max: "28", pops: "-,-,80,70"},
		want{date: "2021-07-25", code: "203", weather: "曇時々雨", min: "27", max: "30", pops: "50,50,50,30", station: "那覇", laundry: 1}},
	{"otiai10-forecast-471000.json", "久米島",
		want{date: "2021-07-24", code: "308", weather: "雨で暴風を伴う", min: "nil", max: "28", pops: "-,-,80,70"},
		want{date: "2021-07-25", code: "203", min: "28", max: "30", pops: "50,50,50,30", station: "久米島", laundry: 1}},
}

func TestEveryFixtureReleaseShapeGivesTodayAndTomorrow(t *testing.T) {
	for _, c := range fixtureCases {
		f := parseFixture(t, c.file)
		today, err := f.Today(c.area)
		if err != nil {
			t.Fatalf("%s %q today: %v", c.file, c.area, err)
		}
		checkDay(t, c.file+" "+c.area+" today", today, c.today)
		tom, err := f.Tomorrow(c.area)
		if err != nil {
			t.Fatalf("%s %q tomorrow: %v", c.file, c.area, err)
		}
		checkDay(t, c.file+" "+c.area+" tomorrow", tom, c.tomorrow)
		if tom.LaundryAdvice == "" {
			t.Errorf("%s: no laundry advice", c.file)
		}
	}
}

// Every file in the fixtures folder is either a forecast with a case above
// or the overview document, which is refused with a coded error.
func TestEveryFixtureFileIsCovered(t *testing.T) {
	dir := fixturesDir(t)
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	covered := map[string]bool{}
	for _, c := range fixtureCases {
		covered[c.file] = true
	}
	sort.Strings(names)
	for _, p := range names {
		name := filepath.Base(p)
		if strings.Contains(name, "overview_forecast") {
			_, err := Parse(readFixture(t, name))
			if apperr.CodeOf(err) != apperr.WeatherBadDocument {
				t.Errorf("%s: Parse error %v, want weather.badDocument", name, err)
			}
			continue
		}
		if !covered[name] {
			t.Errorf("%s has no expected values in fixtureCases", name)
		}
	}
}

func TestATemperatureOrPopWithoutValueIsNilNeverZero(t *testing.T) {
	// The 17:00 release has no temperatures for its own day; the weekly
	// block's first day is "" there.
	f := parseFixture(t, "forecast-fukushima-070000-20220221-0753.json")
	d, err := f.Today("")
	if err != nil {
		t.Fatal(err)
	}
	if d.TempMin != nil {
		t.Errorf("today's min = %v, want nil (the weekly tempsMin is \"\")", *d.TempMin)
	}
	// A "" pop in the short-term block stays nil and shows as "-".
	doc := editFixture(t, "forecast-tokyo-130000-20220221-0754.json", func(blocks []any) {
		pops := tsOf(blocks, 0, 1)["areas"].([]any)[0].(map[string]any)["pops"].([]any)
		pops[5] = "" // 2022-02-22T12:00
	})
	f, err = Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	d, err = f.Tomorrow("")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmtPops(d.Pops); got != "0,0,-,0" {
		t.Errorf("pops %s, want 0,0,-,0", got)
	}
	if txt := d.Text(); !strings.Contains(txt, "12-18時 -、") || strings.Contains(txt, "12-18時 0%") {
		t.Errorf("text shows the missing pop wrongly: %s", txt)
	}
	// "0" is a real 0.
	if d.Pops[0] == nil || *d.Pops[0] != 0 {
		t.Errorf("a \"0\" pop should be 0, got %v", d.Pops[0])
	}
}

// editFixture decodes a fixture, lets edit change it and encodes it again.
func editFixture(t *testing.T, name string, edit func(blocks []any)) []byte {
	t.Helper()
	var blocks []any
	if err := json.Unmarshal(readFixture(t, name), &blocks); err != nil {
		t.Fatal(err)
	}
	edit(blocks)
	b, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tsOf returns timeSeries[ts] of block b of a decoded document.
func tsOf(blocks []any, b, ts int) map[string]any {
	return blocks[b].(map[string]any)["timeSeries"].([]any)[ts].(map[string]any)
}

func TestWeeklyBlockIsMatchedByDateAndAreaCode(t *testing.T) {
	// 05:00 release: the short-term block ends tomorrow (02-23); the weekly
	// block is from the previous evening and starts on 02-22, so its array
	// position 1 is not the day after tomorrow.
	name := "forecast-tokyo-130000-20220222-0827.json"
	f := parseFixture(t, name)
	d, err := f.DayFor("", "2022-02-24")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "東京地方 02-24 from the weekly block", d,
		want{date: "2022-02-24", code: "101", weather: "晴時々曇", min: "1", max: "9", pops: "-,-,-,-", station: "東京"})

	// The same with the weekly areas (weather and temperatures) in reverse order.
	doc := editFixture(t, name, func(blocks []any) {
		for ts := 0; ts < 2; ts++ {
			s := tsOf(blocks, 1, ts)
			areas := s["areas"].([]any)
			for i, j := 0, len(areas)-1; i < j; i, j = i+1, j-1 {
				areas[i], areas[j] = areas[j], areas[i]
			}
		}
	})
	f, err = Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	d, err = f.DayFor("", "2022-02-24")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "東京地方 02-24, weekly areas reversed", d,
		want{date: "2022-02-24", code: "101", min: "1", max: "9", pops: "-,-,-,-", station: "東京"})
	d, err = f.DayFor("130040", "2022-02-24")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "小笠原諸島 02-24, weekly areas reversed", d,
		want{date: "2022-02-24", code: "201", min: "15", max: "19", pops: "-,-,-,-", station: "父島"})

	// 17:00 release: the short-term block has 02-24's weather but not its
	// temperatures, which come from the weekly block by date.
	f = parseFixture(t, "forecast-tokyo-130000-20220222-2212.json")
	d, err = f.DayFor("", "2022-02-24")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "東京地方 02-24 (17:00 release)", d,
		want{date: "2022-02-24", code: "101", min: "0", max: "9", pops: "-,-,-,-"})

	// A weekly block that merges areas (中部・南部) is found by name; its
	// city list has no 飯田, so the temperatures are nil, not 0.
	f = parseFixture(t, "forecast-nagano-200000-20220225-0846.json")
	d, err = f.DayFor("南部", "2022-02-27")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "南部 02-27", d, want{date: "2022-02-27", code: "201", weather: "曇時々晴", min: "nil", max: "nil", pops: "-,-,-,-"})
	d, err = f.DayFor("北部", "2022-02-27")
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "北部 02-27", d, want{date: "2022-02-27", code: "260", weather: "曇一時雪か雨", min: "-2", max: "8", pops: "-,-,-,-", station: "長野"})
}

func TestUnknownWeatherCodeFallsBackToTheNormalisedText(t *testing.T) {
	doc := editFixture(t, "otiai10-forecast-130000.json", func(blocks []any) {
		codes := tsOf(blocks, 0, 0)["areas"].([]any)[0].(map[string]any)["weatherCodes"].([]any)
		codes[1] = "999"
		weekly := tsOf(blocks, 1, 0)["areas"].([]any)[0].(map[string]any)["weatherCodes"].([]any)
		weekly[3] = "998" // 2021-07-28
	})
	f, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.Tomorrow("")
	if err != nil {
		t.Fatal(err)
	}
	if d.WeatherCode != "999" || d.Weather != "くもり 時々 晴れ" {
		t.Errorf("unknown code: %q %q, want 999 and the text with full-width spaces normalised", d.WeatherCode, d.Weather)
	}
	d, err = f.DayFor("", "2021-07-28")
	if err != nil {
		t.Fatal(err)
	}
	if d.Weather != "天気コード 998" {
		t.Errorf("unknown weekly code without text: %q", d.Weather)
	}
	if got := normaliseText("\u3000雨\u3000\u3000時々\u3000くもり "); got != "雨 時々 くもり" {
		t.Errorf("normaliseText = %q", got)
	}
}

func TestUnknownAreaAndMissingDayAreCodedErrors(t *testing.T) {
	f := parseFixture(t, "forecast-tokyo-130000-20220222-2212.json")
	_, err := f.Tomorrow("大阪府")
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.WeatherUnknownArea {
		t.Fatalf("err = %v, want weather.unknownArea", err)
	}
	if ch, _ := ae.Params["choices"].(string); !strings.Contains(ch, "東京地方 (130010)") || !strings.Contains(ch, "小笠原諸島 (130040)") {
		t.Errorf("choices %q do not list the areas", ch)
	}
	if ae.Params["office"] != "130000" {
		t.Errorf("office %v", ae.Params["office"])
	}
	if _, err := f.DayFor("", "2022-03-10"); apperr.CodeOf(err) != apperr.WeatherNoDay {
		t.Errorf("a date outside the document: %v, want weather.noDay", err)
	}
	for _, doc := range []string{``, `{}`, `[]`, `[{"reportDatetime":"x"}]`, `[{"reportDatetime":"2022-02-22T17:00:00+09:00","timeSeries":[]}]`} {
		if _, err := Parse([]byte(doc)); apperr.CodeOf(err) != apperr.WeatherBadDocument {
			t.Errorf("Parse(%q) = %v, want weather.badDocument", doc, err)
		}
	}
}

func TestLaundryIndexRule(t *testing.T) {
	p := func(v int) *int { return &v }
	c := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name string
		d    Day
		want int
	}{
		{"sunny, dry, warm", Day{WeatherCode: "100", Pops: []*int{p(0), p(0), p(10), p(0)}, TempMax: c(26)}, 5},
		{"sunny, dry, mild", Day{WeatherCode: "101", Pops: []*int{p(0), p(10), p(10), p(0)}, TempMax: c(15)}, 5},
		{"sunny then rain for a while", Day{WeatherCode: "112", Pops: []*int{p(0), p(10), p(30), p(30)}, TempMax: c(15)}, 4},
		{"sunny but pop 40", Day{WeatherCode: "100", Pops: []*int{nil, p(40), p(20), nil}, TempMax: c(15)}, 4},
		{"cloudy", Day{WeatherCode: "200", Pops: []*int{p(10), p(20), p(20), p(10)}, TempMax: c(15)}, 3},
		{"cloudy, warm", Day{WeatherCode: "201", Pops: []*int{p(0), p(0), p(10), p(20)}, TempMax: c(32)}, 4},
		{"cloudy, cold", Day{WeatherCode: "210", Pops: []*int{p(0), p(10), p(10), p(0)}, TempMax: c(3)}, 2},
		{"cloudy with snow, pop 50, cold", Day{WeatherCode: "205", Pops: []*int{p(50), p(50), p(40), p(50)}, TempMax: c(2)}, 1},
		{"sunny but pop 70 in the afternoon", Day{WeatherCode: "100", Pops: []*int{p(0), p(10), p(70), p(0)}, TempMax: c(30)}, 1},
		{"sunny, pop 50", Day{WeatherCode: "101", Pops: []*int{p(0), p(50), p(20), p(0)}, TempMax: c(20)}, 3},
		{"rain", Day{WeatherCode: "300", Pops: []*int{p(10), p(10), p(10), p(10)}, TempMax: c(30)}, 1},
		{"snow", Day{WeatherCode: "400"}, 1},
		{"no pops or temperatures", Day{WeatherCode: "100", Pops: make([]*int, 4)}, 5},
		{"only the night pops known", Day{WeatherCode: "100", Pops: []*int{p(60), nil, nil, p(10)}}, 3},
		{"unknown code", Day{WeatherCode: "999"}, 3},
	} {
		n, advice := Laundry(tc.d)
		if n != tc.want {
			t.Errorf("%s: index %d, want %d", tc.name, n, tc.want)
		}
		if advice == "" || advice != laundryAdvice[n] {
			t.Errorf("%s: advice %q", tc.name, advice)
		}
	}
}

func TestDayTextShowsMissingValuesAsDash(t *testing.T) {
	f := parseFixture(t, "forecast-tokyo-130000-20220222-2212.json")
	d, err := f.Tomorrow("")
	if err != nil {
		t.Fatal(err)
	}
	want := "2月23日(水) 東京地方の天気は「晴後曇」。最低気温 -1℃ / 最高気温 9℃（東京）。降水確率 0-6時 0%、6-12時 0%、12-18時 10%、18-24時 10%。洗濯指数 5/5：" + laundryAdvice[5]
	if got := d.Text(); got != want {
		t.Errorf("text\n got %s\nwant %s", got, want)
	}
	d, _ = f.Today("")
	if got := d.Text(); !strings.Contains(got, "最低気温 - / 最高気温 -") || !strings.Contains(got, "0-6時 -、6-12時 -、12-18時 -、18-24時 10%") {
		t.Errorf("today's text: %s", got)
	}
}
