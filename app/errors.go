package app

import (
	"encoding/json"

	"playchat/backend/apperr"
)

// FormatError is the window's options.App.ErrorFormatter: a bound method's
// error reaches the frontend as {code, params, message} (apperr.Info), so
// the window words it in the UI language by its code and keeps the English
// message for a tooltip. An error without a code has code "".
//
// The value is that object's JSON text, not the object: the Wails v2
// runtime rejects the call's promise with new Error(value), which keeps a
// string as the message but turns an object into "[object Object]".
// frontend/src/api/errors.ts (toError) reads the JSON back.
func FormatError(err error) any {
	b, jerr := json.Marshal(apperr.InfoOf(err))
	if jerr != nil {
		return err.Error()
	}
	return string(b)
}
