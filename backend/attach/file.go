package attach

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"playchat/backend/apperr"
)

// PrepareFile reads the file at path and prepares it (Prepare). A file
// larger than MaxDocumentBytes is refused before it is read (AttachTooLarge);
// one that cannot be read, or a folder, is AttachUnreadable.
func PrepareFile(path string) (Prepared, error) {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return Prepared{}, unreadable(name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Prepared{}, unreadable(name, err)
	}
	if st.IsDir() {
		return Prepared{}, apperr.New(apperr.AttachUnreadable, map[string]any{"name": name, "detail": "a folder"})
	}
	if st.Size() > MaxDocumentBytes {
		return Prepared{}, tooLarge(name, "document", int(st.Size()), MaxDocumentBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxDocumentBytes+1))
	if err != nil {
		return Prepared{}, unreadable(name, err)
	}
	if len(data) > MaxDocumentBytes {
		return Prepared{}, tooLarge(name, "document", len(data), MaxDocumentBytes)
	}
	return Prepare(name, data)
}

func unreadable(name string, err error) error {
	detail := err.Error()
	var pe *os.PathError
	if errors.As(err, &pe) {
		detail = pe.Err.Error()
	}
	return apperr.Wrap(apperr.AttachUnreadable, err, map[string]any{"name": name, "detail": detail})
}
