package apperr

import (
	"encoding/json"
	"strings"
)

// Stored is err as a text column keeps it: the JSON of its Info when err
// has a code, else its English text. "" for nil. ParseStored reads it back.
func Stored(err error) string {
	if err == nil {
		return ""
	}
	in := InfoOf(err)
	if in.Code == "" {
		return in.Message
	}
	b, jerr := json.Marshal(in)
	if jerr != nil {
		return in.Message
	}
	return string(b)
}

// ParseStored reads a text written by Stored (or plain English text written
// before codes existed): the Info, with Code "" for plain text.
func ParseStored(s string) Info {
	if strings.HasPrefix(s, `{"code":`) {
		var in Info
		if json.Unmarshal([]byte(s), &in) == nil && in.Code != "" {
			return in
		}
	}
	return Info{Message: s}
}
