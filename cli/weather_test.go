package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/core"
	"playchat/backend/weather"
	"playchat/internal/testcorpus"
)

// jmaFixture returns the path of a JMA forecast document (testcorpus.JMADir).
func jmaFixture(t *testing.T, name string) string { return filepath.Join(testcorpus.JMADir(t), name) }

func TestWeatherFromFileJSONPrintsTomorrowAfterTheReport(t *testing.T) {
	// The 17:00 release of 2022-02-22: tomorrow is 2022-02-23 whatever today is.
	path := jmaFixture(t, "forecast-tokyo-130000-20220222-2212.json")
	r := runCLI(t, []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}, "", "weather", "--from", path, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not one JSON object: %q: %v", r.stdout, err)
	}
	want := map[string]any{"date": "2022-02-23", "area": "東京地方", "weatherCode": "111", "weather": "晴後曇",
		"tempMin": -1.0, "tempMax": 9.0, "laundryIndex": 5.0, "reportDatetime": "2022-02-22T17:00:00+09:00"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	pops, _ := json.Marshal(got["pops"])
	if string(pops) != "[0,0,10,10]" {
		t.Errorf("pops %s", pops)
	}

	// Today's values are missing in a 17:00 release, but tomorrow's are
	// there; an area with its own city, chosen by code, from stdin.
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}, string(doc), "weather", "--from", "-", "--area", "130040", "--json")
	got = nil
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("stdin: exit %d, %q: %v", r.code, r.stdout, err)
	}
	if got["area"] != "小笠原諸島" || got["tempMin"] != 14.0 || got["tempMax"] != 19.0 || got["station"] != "父島" {
		t.Errorf("小笠原諸島: %v", got)
	}
}

func TestWeatherNullsForMissingValues(t *testing.T) {
	// A pop of "" prints as null, never 0.
	path := jmaFixture(t, "forecast-tokyo-130000-20220221-0754.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []map[string]any
	if err := json.Unmarshal(b, &blocks); err != nil {
		t.Fatal(err)
	}
	ts := blocks[0]["timeSeries"].([]any)[1].(map[string]any)
	ts["areas"].([]any)[0].(map[string]any)["pops"].([]any)[4] = ""
	edited, _ := json.Marshal(blocks)
	r := runCLI(t, []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}, string(edited), "weather", "--from", "-", "--json")
	var got struct {
		Pops []*int `json:"pops"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %q: %v", r.code, r.stdout, err)
	}
	if len(got.Pops) != 4 || got.Pops[1] != nil || got.Pops[0] == nil || *got.Pops[0] != 0 {
		t.Errorf("pops %v, want [0 null 10 0]", r.stdout)
	}
}

func TestWeatherTextAndErrors(t *testing.T) {
	path := jmaFixture(t, "forecast-fukushima-070000-20220223-0501.json")
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	r := runCLI(t, env, "", "weather", "--from", path, "--area", "会津")
	for _, s := range []string{"2022-02-24 会津 (070030)", "曇時々雪 (205)", "最低 -5℃ / 最高 2℃ (若松)", "50% / 50% / 40% / 50%", "洗濯指数  1/5"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("text lacks %q:\n%s", s, r.stdout)
		}
	}

	// An unknown area: a coded JSON error line on stdout with --json, exit 1.
	r = runCLI(t, env, "", "weather", "--from", path, "--area", "大阪", "--json")
	var line errorLine
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &line); err != nil || r.code != 1 {
		t.Fatalf("exit %d, %q: %v", r.code, r.stdout, err)
	}
	if line.Type != "error" || line.Code != apperr.WeatherUnknownArea || !strings.Contains(line.Value, "会津 (070030)") {
		t.Errorf("error line %+v", line)
	}
	// Without --json the English text goes to stderr.
	r = runCLI(t, env, "", "weather", "--from", jmaFixture(t, "otiai10-overview_forecast-130000.json"))
	if r.code != 1 || !strings.Contains(r.stderr, "playchat: not a JMA forecast document") {
		t.Errorf("overview document: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "weather", "extra")
	if r.code != 2 {
		t.Errorf("a positional argument: exit %d", r.code)
	}
	r = runCLI(t, env, "", "weather", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "playchat weather [--office CODE]") || !strings.Contains(r.stdout, "-from") {
		t.Errorf("help: exit %d, %q", r.code, r.stdout)
	}
}

func TestWeatherFetchesTheConfiguredOffice(t *testing.T) {
	doc, err := os.ReadFile(jmaFixture(t, "forecast-nagano-200000-20220225-0846.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Move the document's dates so that its report day is today in Tokyo:
	// tomorrow follows the clock when fetching.
	today := time.Now().In(weather.JST)
	report := time.Date(2022, 2, 25, 0, 0, 0, 0, weather.JST)
	var pairs []string
	for d := -2; d <= 9; d++ {
		pairs = append(pairs, report.AddDate(0, 0, d).Format("2006-01-02"), today.AddDate(0, 0, d).Format("2006-01-02"))
	}
	doc = []byte(strings.NewReplacer(pairs...).Replace(string(doc)))
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.URL.Path != "/200000.json" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(doc)
	}))
	defer srv.Close()
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir(), weather.BaseURLEnv + "=" + srv.URL,
		"WEATHER_OFFICE_CODE=200000", "WEATHER_AREA=南部"}
	r := runCLI(t, env, "", "weather", "--json")
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 {
		t.Fatalf("exit %d, %q %s: %v", r.code, r.stdout, r.stderr, err)
	}
	if got["area"] != "南部" || got["office"] != "200000" || len(paths) != 1 || paths[0] != "/200000.json" ||
		got["date"] != today.AddDate(0, 0, 1).Format("2006-01-02") || got["weatherCode"] != "100" ||
		got["tempMin"] != -5.0 || got["tempMax"] != 10.0 {
		t.Errorf("got %v after requests %v", got, paths)
	}
	// --office overrides the configuration; the server's 404 is a coded error.
	r = runCLI(t, env, "", "weather", "--office", "130000", "--json")
	var line errorLine
	_ = json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &line)
	if r.code != 1 || line.Code != apperr.WeatherFetchStatus {
		t.Errorf("404: exit %d, %+v", r.code, line)
	}
}

// The area saved in the window's Settings (the GUI layer, in the database)
// is the default of `playchat weather`, as for every other command.
func TestWeatherUsesTheAreaSavedInSettings(t *testing.T) {
	path := jmaFixture(t, "forecast-tokyo-130000-20220222-2212.json")
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	c, err := core.Open(context.Background(), core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SaveSettings(context.Background(), map[string]string{"WEATHER_AREA": "伊豆諸島北部"}, nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	r := runCLI(t, env, "", "weather", "--from", path, "--json")
	var got map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); r.code != 0 || err != nil {
		t.Fatalf("exit %d: %s %s (%v)", r.code, r.stdout, r.stderr, err)
	}
	if got["area"] != "伊豆諸島北部" {
		t.Fatalf("area = %v, want the saved 伊豆諸島北部", got["area"])
	}
	// A flag still wins over the saved setting.
	r = runCLI(t, env, "", "weather", "--from", path, "--json", "--area", "東京地方")
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got["area"] != "東京地方" {
		t.Fatalf("--area: %s (%v)", r.stdout, err)
	}
}
