package apperr

// Codes of the window's system actions (app/about.go): opening the data
// and log folders in the file manager (issue 14).
const (
	// SystemOpenFolder: the folder {path} (absolute) could not be created or shown in the file manager; the cause follows.
	SystemOpenFolder Code = "system.openFolder"
)

var systemTemplates = map[Code]string{
	SystemOpenFolder: "cannot open the folder {path} in the file manager",
}

func init() {
	for c, t := range systemTemplates {
		templates[c] = t
	}
}
