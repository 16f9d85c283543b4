package app

import (
	"context"
	"sort"
	"strings"

	"playchat/backend/config"
	"playchat/backend/llm"
)

// ImageSetting is what the settings page shows for one model's images
// (issue 25): the user's setting and what the vision table says.
type ImageSetting struct {
	// Model is the model id, "provider/model".
	Model string `json:"model"`
	// Override is the user's setting (MODEL_IMAGES): "yes", "no", or ""
	// (automatic: the table decides).
	Override string `json:"override"`
	// Table is the vision table's answer: "yes", "no" or "unknown".
	Table string `json:"table"`
	// Effective is what the window and the request follow: Override when
	// set, else Table.
	Effective string `json:"effective"`
}

// TakesImages reports whether the model ("provider/model") takes images,
// for the warning shown before a message with images is sent: the user's
// setting (MODEL_IMAGES) first, then the vision table. "yes", "no" (warn:
// a model set to "no" is also refused by the send, apperr.ChatImagesNotTaken)
// or "unknown" (not in the table: send and let the provider say). Without
// a backend it is the table's answer.
func (s *AttachmentService) TakesImages(model string) string {
	c, err := s.app.backend()
	if err != nil {
		return llm.TakesImages(model)
	}
	return llm.TakesImagesWith(model, c.Config().ModelImages)
}

// ImageSetting returns model's setting and the table's answer.
func (s *AttachmentService) ImageSetting(model string) (ImageSetting, error) {
	c, err := s.app.backend()
	if err != nil {
		return ImageSetting{}, err
	}
	model = strings.TrimSpace(model)
	return imageSetting(model, c.Config().ModelImages), nil
}

// ImageOverrides lists every model the user set (MODEL_IMAGES), sorted by
// model id.
func (s *AttachmentService) ImageOverrides() ([]ImageSetting, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	m := c.Config().ModelImages
	out := make([]ImageSetting, 0, len(m))
	for k := range m {
		out = append(out, imageSetting(k, m))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out, nil
}

// SetTakesImages sets whether model ("provider/model", trimmed) takes
// images: "yes", "no", or "" (automatic: the setting is removed). The
// whole MODEL_IMAGES value is validated and saved in one step, as Settings'
// Save does; on a bad model or value (a *config.ValueError coded
// config.invalidValue with a config.reason.images* reason) or a full list
// (more than config.MaxModelImages models) nothing changes. It returns the
// model's new setting.
func (s *AttachmentService) SetTakesImages(model, value string) (ImageSetting, error) {
	c, err := s.app.backend()
	if err != nil {
		return ImageSetting{}, err
	}
	model = strings.TrimSpace(model)
	value = strings.ToLower(strings.TrimSpace(value))
	m := map[string]string{}
	for k, v := range c.Config().ModelImages {
		m[k] = v
	}
	if value == "" {
		delete(m, model)
	} else {
		m[model] = value
	}
	if value != "" {
		// The entry alone first, so its error names it; SaveSettings then
		// checks the whole value (the count).
		if err := config.ValidateValue("MODEL_IMAGES", model+"="+value); err != nil {
			return ImageSetting{}, err
		}
	}
	next := config.FormatModelImages(m)
	if next == "" {
		err = c.SaveSettings(context.Background(), nil, []string{"MODEL_IMAGES"})
	} else {
		err = c.SaveSettings(context.Background(), map[string]string{"MODEL_IMAGES": next}, nil)
	}
	if err != nil {
		return ImageSetting{}, err
	}
	return imageSetting(model, c.Config().ModelImages), nil
}

func imageSetting(model string, overrides map[string]string) ImageSetting {
	return ImageSetting{Model: model, Override: overrides[model], Table: llm.TakesImages(model),
		Effective: llm.TakesImagesWith(model, overrides)}
}
