package webview

import (
	"testing"

	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

func TestGPUPolicy(t *testing.T) {
	for v, want := range map[string]linux.WebviewGpuPolicy{
		"":       linux.WebviewGpuPolicyNever,
		"0":      linux.WebviewGpuPolicyNever,
		"never":  linux.WebviewGpuPolicyNever,
		"1":      linux.WebviewGpuPolicyAlways,
		"Always": linux.WebviewGpuPolicyAlways,
	} {
		got := GPUPolicy(func(k string) string {
			if k == GPUEnv {
				return v
			}
			return ""
		})
		if got != want {
			t.Errorf("%s=%q: policy %v, want %v", GPUEnv, v, got, want)
		}
	}
}
