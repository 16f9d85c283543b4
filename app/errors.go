package app

import "playchat/backend/apperr"

// FormatError is the window's options.App.ErrorFormatter: a bound method's
// error reaches the frontend as {code, params, message} (apperr.Info), so
// the window words it in the UI language by its code and keeps the English
// message for a tooltip. An error without a code has code "".
func FormatError(err error) any {
	return apperr.InfoOf(err)
}
