package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"playchat/backend/config"
	"playchat/backend/store"
	"playchat/backend/weather"
)

// weatherJSON is the object `playchat weather --json` prints: tomorrow's
// Day (date, area, areaCode, weatherCode, weather, tempMin, tempMax,
// station, pops, laundryIndex, laundryAdvice) and the document's release.
type weatherJSON struct {
	weather.Day
	// Office is the office code asked for ("" with --from).
	Office string `json:"office"`
	// ReportDatetime is the document's reportDatetime (JST, RFC 3339).
	ReportDatetime string `json:"reportDatetime"`
}

// weatherCmd prints tomorrow's forecast and laundry index: fetched from
// JMA (tomorrow after now in Asia/Tokyo), or read from a saved document
// with --from (tomorrow after its reportDatetime). The office and area come
// from the flags, else WEATHER_OFFICE_CODE/WEATHER_AREA as configured
// (.env, the environment, the settings saved in the window).
func weatherCmd(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("weather", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	office := fs.String("office", "", "JMA forecast office code, 6 digits (default WEATHER_OFFICE_CODE, 130000 = Tokyo)")
	area := fs.String("area", "", "forecast area by name or code, e.g. 東京地方 or 130010 (default WEATHER_AREA, else the first)")
	from := fs.String("from", "", "read a saved JMA forecast document (\"-\" = stdin) instead of fetching")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"weather takes no arguments (playchat weather --help lists its flags)"}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	out, err := weatherTomorrow(ctx, env, *office, *area, *from, set)
	if err != nil {
		if *asJSON {
			b, _ := json.Marshal(jsonError(err))
			fmt.Fprintln(env.Stdout, string(b))
			return errReported
		}
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	printWeather(env.Stdout, out)
	return nil
}

func weatherTomorrow(ctx context.Context, env Env, office, area, from string, set map[string]bool) (weatherJSON, error) {
	if !set["area"] || (from == "" && !set["office"]) {
		cfg, err := weatherConfig(ctx, env)
		if err != nil {
			return weatherJSON{}, err
		}
		if !set["area"] {
			area = cfg.WeatherArea
		}
		if !set["office"] {
			office = cfg.WeatherOfficeCode
		}
	}
	if from != "" {
		doc, err := readWeatherDoc(env, from)
		if err != nil {
			return weatherJSON{}, err
		}
		f, err := weather.Parse(doc)
		if err != nil {
			return weatherJSON{}, err
		}
		d, err := f.Tomorrow(area)
		if err != nil {
			return weatherJSON{}, err
		}
		return weatherJSON{Day: d, ReportDatetime: f.Report.Format(time.RFC3339)}, nil
	}
	s := weather.NewService(weather.Options{BaseURL: weather.BaseURLFromEnviron(env.Environ), Office: office,
		Area: area, Version: Version, Log: env.Logger})
	f, err := s.Forecast(ctx)
	if err != nil {
		return weatherJSON{}, err
	}
	d, err := s.Tomorrow(ctx)
	if err != nil {
		return weatherJSON{}, err
	}
	return weatherJSON{Day: d, Office: office, ReportDatetime: f.Report.Format(time.RFC3339)}, nil
}

// weatherConfig reads WEATHER_OFFICE_CODE and WEATHER_AREA as every other
// command does: defaults < .env < environment < the settings saved in the
// window (the window does not lock its data dir against commands). Before
// the first start there is no database, and none is created for this.
func weatherConfig(ctx context.Context, env Env) (config.Config, error) {
	dir, err := config.DataDir(env.Environ)
	if err != nil {
		return config.Config{}, err
	}
	if _, err := os.Stat(filepath.Join(dir, store.FileName)); err == nil {
		c, err := openCore(ctx, env)
		if err != nil {
			return config.Config{}, err
		}
		defer c.Close()
		return c.Config(), nil
	}
	layers, err := config.LoadLayers(dir, env.Environ)
	if err != nil {
		return config.Config{}, err
	}
	cfg, cerr := config.Resolve(layers, dir)
	if cerr != nil {
		return config.Config{}, &ConfigError{Err: cerr, DotEnv: filepath.Join(dir, config.DotEnvFile)}
	}
	return cfg, nil
}

func readWeatherDoc(env Env, from string) ([]byte, error) {
	const limit = 4 << 20
	var r io.Reader
	if from == "-" {
		r = env.Stdin
		if r == nil {
			r = os.Stdin
		}
	} else {
		f, err := os.Open(from)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%s is longer than %d MiB: not a JMA forecast document", from, limit>>20)
	}
	return b, nil
}

// printWeather writes the forecast for a terminal, a missing value as "-".
func printWeather(w io.Writer, o weatherJSON) {
	d := o.Day
	temp := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatFloat(*v, 'f', -1, 64) + "℃"
	}
	pops := make([]string, len(d.Pops))
	for i, p := range d.Pops {
		pops[i] = "-"
		if p != nil {
			pops[i] = strconv.Itoa(*p) + "%"
		}
	}
	station := ""
	if d.Station != "" {
		station = " (" + d.Station + ")"
	}
	fmt.Fprintf(w, "%s %s (%s)  発表 %s\n", d.Date, d.Area, d.AreaCode, o.ReportDatetime)
	fmt.Fprintf(w, "天気      %s (%s)\n", d.Weather, d.WeatherCode)
	fmt.Fprintf(w, "気温      最低 %s / 最高 %s%s\n", temp(d.TempMin), temp(d.TempMax), station)
	fmt.Fprintf(w, "降水確率  %s (0-6, 6-12, 12-18, 18-24時)\n", strings.Join(pops, " / "))
	fmt.Fprintf(w, "洗濯指数  %d/5 %s\n", d.LaundryIndex, d.LaundryAdvice)
}
