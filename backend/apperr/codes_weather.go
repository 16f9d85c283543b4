package apperr

// Codes of the JMA weather forecast (backend/weather, issue 13): fetching
// and reading the forecast document and choosing its area. They live in
// their own file so they read together; the templates join the table at init.
const (
	// WeatherBadOffice: {office} is not a JMA forecast office code (6 ASCII digits, e.g. 130000 for Tokyo).
	WeatherBadOffice Code = "weather.badOffice"
	// WeatherUnknownArea: the forecast of office {office} has no area {area} (a name or a code); {choices} lists its areas as "name (code)", comma-separated.
	WeatherUnknownArea Code = "weather.unknownArea"
	// WeatherFetchStatus: the JMA server answered HTTP {status} (a number) for office {office}.
	WeatherFetchStatus Code = "weather.fetchStatus"
	// WeatherUnreachable: the JMA server could not be reached for office {office} (network error or the 10 s timeout); the cause follows.
	WeatherUnreachable Code = "weather.unreachable"
	// WeatherBadDocument: the document is not a JMA forecast playchat can read; {detail} says why, in English.
	WeatherBadDocument Code = "weather.badDocument"
	// WeatherNoDay: the forecast has no weather for {date} (YYYY-MM-DD) in the area {area}.
	WeatherNoDay Code = "weather.noDay"
)

var weatherTemplates = map[Code]string{
	WeatherBadOffice:   "{office:q} is not a JMA forecast office code (6 digits, e.g. 130000 for Tokyo)",
	WeatherUnknownArea: "the forecast of office {office} has no area {area:q}; choose one of: {choices}",
	WeatherFetchStatus: "the JMA forecast server answered {status} for office {office}",
	WeatherUnreachable: "cannot fetch the JMA forecast for office {office}",
	WeatherBadDocument: "not a JMA forecast document: {detail}",
	WeatherNoDay:       "the forecast has no weather for {date} in {area}",
}

func init() {
	for c, t := range weatherTemplates {
		templates[c] = t
	}
}
