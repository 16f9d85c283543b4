package webview

import (
	"strings"

	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// GPUEnv lets a user turn the web view's hardware acceleration back on:
// PLAYCHAT_WEBVIEW_GPU=1 (or "always").
const GPUEnv = "PLAYCHAT_WEBVIEW_GPU"

// GPUPolicy is the web view's hardware acceleration policy: never, unless
// GPUEnv asks for it (Prepared.GPUPolicy).
//
// With acceleration (what an options.Linux without WebviewGpuPolicy gets:
// its zero value, on demand, which WebKitGTK 2.4x treats as always) every
// page is composited through OpenGL; without a GPU that is Mesa's software
// rasteriser, whose textures, tiles and shader code live in the web
// process's own memory. Measured in the soak (issue 7, 100 turns under
// Xvfb) the web process's private memory was ~138 MiB after the first turn
// and ~317 MiB at turn 100 with compositing, ~43 and ~140 MiB without,
// turns no slower. A chat window needs no GPU, and Wails itself defaults to
// never when options.Linux is nil (wailsapp/wails#2977: blank windows with
// some drivers).
func GPUPolicy(getenv func(string) string) linux.WebviewGpuPolicy {
	switch strings.ToLower(strings.TrimSpace(getenv(GPUEnv))) {
	case "1", "true", "yes", "always", "on":
		return linux.WebviewGpuPolicyAlways
	}
	return linux.WebviewGpuPolicyNever
}
