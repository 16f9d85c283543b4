package config

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestDataDir(t *testing.T) {
	t.Run("PLAYCHAT_DATA_DIR wins and is created 0700", func(t *testing.T) {
		want := filepath.Join(t.TempDir(), "nested", "data")
		got, err := DataDir([]string{"XDG_DATA_HOME=/nowhere", DataDirEnv + "=" + want})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("DataDir = %q, want %q", got, want)
		}
		fi, err := os.Stat(got)
		if err != nil || !fi.IsDir() {
			t.Fatalf("not created: %v", err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
			t.Errorf("mode = %v, want 0700", fi.Mode().Perm())
		}
	})
	t.Run("relative PLAYCHAT_DATA_DIR is made absolute", func(t *testing.T) {
		t.Chdir(t.TempDir())
		got, err := DataDir([]string{DataDirEnv + "=rel"})
		if err != nil {
			t.Fatal(err)
		}
		if !filepath.IsAbs(got) || filepath.Base(got) != "rel" {
			t.Errorf("DataDir = %q", got)
		}
	})
	t.Run("an existing directory keeps its mode", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o750); err != nil {
			t.Fatal(err)
		}
		if _, err := DataDir([]string{DataDirEnv + "=" + dir}); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(dir); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o750 {
			t.Errorf("mode changed to %v", fi.Mode().Perm())
		}
	})
	t.Run("default is the OS data dir plus playchat", func(t *testing.T) {
		if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
			t.Skip("uses os.UserConfigDir")
		}
		xdgHome := t.TempDir()
		t.Setenv("XDG_DATA_HOME", xdgHome)
		got, err := DataDir([]string{"XDG_DATA_HOME=" + xdgHome, DataDirEnv + "=  "})
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(xdgHome, "playchat"); got != want {
			t.Errorf("DataDir = %q, want %q", got, want)
		}
	})
	t.Run("without XDG_DATA_HOME it is xdg.DataHome", func(t *testing.T) {
		if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
			t.Skip("uses os.UserConfigDir")
		}
		base, err := osDataDir(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !filepath.IsAbs(base) {
			t.Errorf("osDataDir = %q, want absolute", base)
		}
	})
	t.Run("uncreatable directory is an error", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := DataDir([]string{DataDirEnv + "=" + filepath.Join(file, "sub")}); err == nil {
			t.Error("want an error under a regular file")
		}
	})
}

func TestDataDirThenLoadLayersEndToEnd(t *testing.T) {
	data := t.TempDir()
	t.Setenv(DataDirEnv, data)
	t.Setenv("MAX_OUTPUT_TOKENS", "2048")
	dir, err := DataDir(os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	writeDotEnv(t, dir, "MAX_OUTPUT_TOKENS=10\nTOOL_MAX_ROUNDS=7\n")
	l, err := LoadLayers(dir, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	c, err := Resolve(l, dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxOutputTokens != 2048 || c.ToolMaxRounds != 7 || c.DataDir != data {
		t.Errorf("got MaxOutputTokens=%d ToolMaxRounds=%d DataDir=%q", c.MaxOutputTokens, c.ToolMaxRounds, c.DataDir)
	}
	if v, src := c.Value(DataDirEnv); v != data || src != SourceEnv {
		t.Errorf("Value(%s) = %q, %q", DataDirEnv, v, src)
	}
}
