package apperr

import (
	"strconv"
	"strings"
)

// FrontendCodeList returns the TypeScript source of
// frontend/src/api/errorCodes.ts: every code with its English template and
// placeholder names, for the test that checks both locales word each code.
func FrontendCodeList() string {
	var b strings.Builder
	b.WriteString("// Generated from backend/apperr by `go test ./backend/apperr -update`. Do not edit.\n")
	b.WriteString("// Every error code the backend sends, its English template and its placeholders;\n")
	b.WriteString("// the window words each as errors.code.<code> in every locale.\n\n")
	b.WriteString("export const ERROR_CODES: Record<string, { template: string; params: string[] }> = {\n")
	for _, s := range Codes() {
		params := make([]string, len(s.Params))
		for i, p := range s.Params {
			params[i] = "'" + p + "'"
		}
		b.WriteString("  '" + string(s.Code) + "': { template: " + strconv.Quote(s.Template) +
			", params: [" + strings.Join(params, ", ") + "] },\n")
	}
	b.WriteString("}\n")
	return b.String()
}
