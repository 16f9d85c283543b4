package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
)

// AppSettings returns every setting saved in the GUI, key → value.
func (d *DB) AppSettings(ctx context.Context) (map[string]string, error) {
	var rows []AppSetting
	if err := d.bun.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Key] = r.Value
	}
	return out, nil
}

// SaveAppSettings upserts set and deletes the keys in clear, in one
// transaction.
func (d *DB) SaveAppSettings(ctx context.Context, set map[string]string, clear []string) error {
	t := now()
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for k, v := range set {
			row := AppSetting{Key: k, Value: v, UpdatedAt: t}
			if _, err := tx.NewInsert().Model(&row).On("CONFLICT (key) DO UPDATE").
				Set("value = EXCLUDED.value").Set("updated_at = EXCLUDED.updated_at").Exec(ctx); err != nil {
				return fmt.Errorf("save setting %s: %w", k, err)
			}
		}
		if len(clear) > 0 {
			if _, err := tx.NewDelete().Table("app_settings").Where("key IN (?)", bun.In(clear)).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListPresets returns the model presets in the order they were added.
func (d *DB) ListPresets(ctx context.Context) ([]ModelPreset, error) {
	var ps []ModelPreset
	err := d.bun.NewSelect().Model(&ps).Order("id").Scan(ctx)
	return ps, err
}

// CreatePreset adds a model preset. label and value must not be blank.
func (d *DB) CreatePreset(ctx context.Context, label, value string) (ModelPreset, error) {
	p := ModelPreset{Label: strings.TrimSpace(label), Value: strings.TrimSpace(value), CreatedAt: now()}
	if p.Label == "" || p.Value == "" {
		return ModelPreset{}, apperr.New(apperr.SettingsPresetIncomplete, nil)
	}
	_, err := d.bun.NewInsert().Model(&p).Exec(ctx)
	return p, err
}

// UpdatePreset changes a preset's label and value.
func (d *DB) UpdatePreset(ctx context.Context, id int64, label, value string) (ModelPreset, error) {
	p := ModelPreset{ID: id, Label: strings.TrimSpace(label), Value: strings.TrimSpace(value)}
	if p.Label == "" || p.Value == "" {
		return ModelPreset{}, apperr.New(apperr.SettingsPresetIncomplete, nil)
	}
	res, err := d.bun.NewUpdate().Model(&p).Column("label", "value").WherePK().Exec(ctx)
	if err != nil {
		return ModelPreset{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ModelPreset{}, fmt.Errorf("preset %d: %w", id, ErrNotFound)
	}
	err = d.bun.NewSelect().Model(&p).WherePK().Scan(ctx)
	return p, err
}

// DeletePreset deletes a preset.
func (d *DB) DeletePreset(ctx context.Context, id int64) error {
	res, err := d.bun.NewDelete().Table("model_presets").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("preset %d: %w", id, ErrNotFound)
	}
	return nil
}
