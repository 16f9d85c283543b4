package config

import (
	"sort"
	"strings"
	"unicode"

	"playchat/backend/apperr"
)

// KindModelImages is MODEL_IMAGES' kind: a comma-separated list of
// "provider/model=yes" or "provider/model=no" entries (issue 25), e.g.
// "ollama/llava:13b=yes,openai/gpt-4=no". The settings page shows it as its
// own control, not as a text field.
const KindModelImages = "modelimages"

// MaxModelImages is the most models MODEL_IMAGES may name.
const MaxModelImages = 200

// Values of a MODEL_IMAGES entry: the model takes images, or it does not.
// A model that is not named is decided by the vision table (llm.TakesImages).
const (
	ImagesOverrideYes = "yes"
	ImagesOverrideNo  = "no"
)

// ParseModelImages reads a MODEL_IMAGES value into a map from model id
// ("provider/model", trimmed, case kept) to ImagesOverrideYes or
// ImagesOverrideNo (values matched case-insensitively). "" gives an empty
// map. Errors are coded (apperr.ConfigReasonImages*): an entry without
// "=", a model that is not "provider/model", a value other than yes/no, a
// model named twice, more than MaxModelImages models.
func ParseModelImages(v string) (map[string]string, *apperr.Error) {
	out := map[string]string{}
	for _, entry := range strings.Split(v, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		i := strings.LastIndexByte(entry, '=')
		if i < 0 {
			return nil, apperr.New(apperr.ConfigReasonImagesEntry, map[string]any{"entry": entry})
		}
		model, val := strings.TrimSpace(entry[:i]), strings.ToLower(strings.TrimSpace(entry[i+1:]))
		if !validModelID(model) {
			return nil, apperr.New(apperr.ConfigReasonImagesEntry, map[string]any{"entry": entry})
		}
		if val != ImagesOverrideYes && val != ImagesOverrideNo {
			return nil, apperr.New(apperr.ConfigReasonImagesValue, map[string]any{"model": model})
		}
		if _, dup := out[model]; dup {
			return nil, apperr.New(apperr.ConfigReasonImagesDuplicate, map[string]any{"model": model})
		}
		if len(out) == MaxModelImages {
			return nil, apperr.New(apperr.ConfigReasonImagesCount, map[string]any{"max": MaxModelImages})
		}
		out[model] = val
	}
	return out, nil
}

// FormatModelImages writes m as a MODEL_IMAGES value, entries sorted by
// model id; an empty map gives "". It does not validate m (ValidateValue
// does, on the result).
func FormatModelImages(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ",")
}

// validModelID reports whether s is a "provider/model" id that can stand in
// a MODEL_IMAGES entry: a provider, a slash and a model, no whitespace,
// control characters, commas or "=".
func validModelID(s string) bool {
	i := strings.IndexByte(s, '/')
	if i <= 0 || i == len(s)-1 || strings.HasSuffix(s, "/") || strings.Contains(s, "//") {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == ',' || r == '='
	}) < 0
}
