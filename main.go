package main

import (
	"embed"
	"log"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"playchat/app"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	err := wails.Run(&options.App{
		Title: "playchat", Width: 1200, Height: 800,
		AssetServer: &assetserver.Options{Assets: assets},
		Bind:        []any{&app.ChatService{}, &app.SessionService{}, &app.MemoryService{}, &app.LogService{}, &app.SettingsService{}, &app.ModelService{}, &app.SystemService{}},
	})
	if err != nil {
		log.Fatal(err)
	}
}
