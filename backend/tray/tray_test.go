package tray

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jonboulle/clockwork"

	"playchat/backend/reminders"
)

// testIcon is a 128×128 opaque blue PNG.
func testIcon(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 128, 128))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i+2], img.Pix[i+3] = 0xC0, 0xFF
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestIconsScaleToIconSizeAndBadgeTheTopRightCornerRed(t *testing.T) {
	plain, badged, err := Icons(testIcon(t), IconSize)
	if err != nil {
		t.Fatal(err)
	}
	p, err := png.Decode(bytes.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(badged))
	if err != nil {
		t.Fatal(err)
	}
	if p.Bounds().Dx() != IconSize || p.Bounds().Dy() != IconSize {
		t.Fatalf("plain icon is %v, want %d×%d", p.Bounds(), IconSize, IconSize)
	}
	// The dot's centre is red on the badged icon and untouched (blue) on
	// the plain one; the bottom-left corner is blue on both.
	cx, cy := IconSize-IconSize/5-IconSize/32-1, IconSize/5+IconSize/32+1
	if r, g, bl, _ := b.At(cx, cy).RGBA(); r>>8 != 0xE5 || g>>8 != 0x39 || bl>>8 != 0x35 {
		t.Errorf("badged icon at the dot = %x %x %x, want the badge red", r>>8, g>>8, bl>>8)
	}
	if r, _, bl, _ := p.At(cx, cy).RGBA(); r != 0 || bl>>8 != 0xC0 {
		t.Errorf("plain icon at the dot = r %x b %x, want the icon's blue", r>>8, bl>>8)
	}
	if r, _, bl, _ := b.At(2, IconSize-3).RGBA(); r != 0 || bl>>8 != 0xC0 {
		t.Errorf("badged icon bottom-left = r %x b %x, want the icon's blue", r>>8, bl>>8)
	}
	if _, _, err := Icons([]byte("not an image"), IconSize); err == nil {
		t.Error("an undecodable icon gave no error")
	}
}

func TestReminderLabelSaysTodayOrTheDateAndCutsLongText(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, tokyo)
	today := reminders.Reminder{DueAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Content: "燃える\nゴミ"}
	if got := reminderLabel(today, now, tokyo, labelsJA); got != "今日 09:00  燃える ゴミ" {
		t.Errorf("today's label = %q", got)
	}
	later := reminders.Reminder{DueAt: time.Date(2026, 12, 24, 10, 30, 0, 0, time.UTC), Content: strings.Repeat("a", 60)}
	got := reminderLabel(later, now, tokyo, labelsEN)
	if !strings.HasPrefix(got, "12/24 19:30  ") || !strings.HasSuffix(got, "…") || len([]rune(got)) != len("12/24 19:30  ")+maxReminderRunes {
		t.Errorf("later label = %q", got)
	}
}

func TestUnseenCountsDeliveriesAndFailuresSinceTheWindowWasHidden(t *testing.T) {
	hidden := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	before, after := hidden.Add(-time.Minute), hidden.Add(time.Minute)
	rs := []reminders.Reminder{
		{ID: 1, State: reminders.StateDelivered, NotifiedAt: &before},
		{ID: 2, State: reminders.StateDelivered, NotifiedAt: &after},
		{ID: 3, State: reminders.StatePending, NotifiedAt: &after}, // a repeating one, delivered
		{ID: 4, State: reminders.StateFailed, UpdatedAt: &after},
		{ID: 5, State: reminders.StatePending},
	}
	if n := unseen(rs, hidden); n != 3 {
		t.Errorf("unseen = %d, want 3 (ids 2, 3, 4)", n)
	}
	if n := unseen(rs, time.Time{}); n != 0 {
		t.Errorf("unseen with the window shown = %d, want 0", n)
	}
}

func TestHostPresentWithoutASessionBusSaysSoWithoutLaunchingOne(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	ok, err := HostPresent(context.Background())
	if ok || !errors.Is(err, ErrNoHost) || !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS") {
		t.Errorf("HostPresent with no session bus = %v, %v; want false and ErrNoHost naming DBUS_SESSION_BUS_ADDRESS", ok, err)
	}
	if _, err := Start(Options{Icon: testIcon(t)}); err == nil {
		t.Error("Start with no session bus gave no error")
	}
}

func TestLabelsForPicksJapaneseOnlyForJa(t *testing.T) {
	if labelsFor("ja").Quit != "終了" || labelsFor("en").Quit != "Quit" || labelsFor("").Quit != "Quit" {
		t.Error("labelsFor does not map ja → Japanese, anything else → English")
	}
}

// fakeSource is a reminders Source over a slice.
type fakeSource struct {
	mu  sync.Mutex
	rs  []reminders.Reminder
	fns []func()
}

func (f *fakeSource) List(_ context.Context, o reminders.ListOptions) ([]reminders.Reminder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []reminders.Reminder
	for _, r := range f.rs {
		if o.All || r.Active() {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeSource) OnChange(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fns = append(f.fns, fn)
}

func (f *fakeSource) update(fn func(rs []reminders.Reminder)) {
	f.mu.Lock()
	fn(f.rs)
	fns := append([]func(){}, f.fns...)
	f.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// TestTrayRegistersItsMenuWithTheWatcherAndQuitEndsTheApp runs the tray
// against a fake StatusNotifierWatcher on a private session bus, reads its
// menu the way a panel does (com.canonical.dbusmenu.GetLayout) and clicks
// its items (Event "clicked"). It runs once per process: fyne.io/systray
// cannot start twice.
func TestTrayRegistersItsMenuWithTheWatcherAndQuitEndsTheApp(t *testing.T) {
	addr := startSessionBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)

	if ok, err := HostPresent(context.Background()); ok || err == nil {
		t.Fatalf("HostPresent with no watcher = %v, %v; want false and a reason", ok, err)
	}
	w := startWatcher(t, addr)
	if ok, err := HostPresent(context.Background()); !ok || err != nil {
		t.Fatalf("HostPresent with a watcher = %v, %v; want true", ok, err)
	}

	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, tokyo)
	src := &fakeSource{}
	for i, text := range []string{"燃えるゴミ", "dentist", "call mum", "fourth"} {
		src.rs = append(src.rs, reminders.Reminder{ID: int64(i + 1), Content: text, State: reminders.StatePending,
			DueAt: now.Add(time.Duration(i+1) * time.Hour).UTC(), SessionID: "s" + text})
	}
	var langMu sync.Mutex
	lang := "en"
	quit, opened := make(chan struct{}, 1), make(chan struct{}, 1)
	chosen := make(chan reminders.Reminder, 1)
	pause := &reminders.Pause{Clock: clockwork.NewFakeClockAt(now)}
	tr, err := Start(Options{
		Icon:       testIcon(t),
		Language:   func() string { langMu.Lock(); defer langMu.Unlock(); return lang },
		Reminders:  src,
		Pause:      pause,
		Zone:       tokyo,
		Now:        func() time.Time { return now },
		OnOpen:     func() { opened <- struct{}{} },
		OnQuit:     func() { quit <- struct{}{} },
		OnReminder: func(r reminders.Reminder) { chosen <- r },
		Status: func(lang string) string {
			if lang == "ja" {
				return "Discord: playchat-bot として接続中"
			}
			return "" // hidden until the language changes below
		},
	})
	if errors.Is(err, ErrStarted) {
		t.Skip("the tray ran earlier in this process (go test -count > 1); fyne.io/systray starts once")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Stop()
	if _, err := Start(Options{Icon: testIcon(t)}); err != ErrStarted {
		t.Errorf("a second Start = %v, want ErrStarted", err)
	}

	reg := waitFor(t, w.reg, "RegisterStatusNotifierItem")
	if reg.service != "/StatusNotifierItem" {
		t.Errorf("registered %q, want the item path /StatusNotifierItem", reg.service)
	}
	client, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	item := client.Object(reg.sender, "/StatusNotifierItem")
	var menuPath dbus.ObjectPath
	if err := item.Call("org.freedesktop.DBus.Properties.Get", 0, "org.kde.StatusNotifierItem", "Menu").Store(&menuPath); err != nil {
		t.Fatal("read the item's Menu property:", err)
	}
	var title string
	if err := item.Call("org.freedesktop.DBus.Properties.Get", 0, "org.kde.StatusNotifierItem", "Title").Store(&title); err != nil || title != "playchat" {
		t.Errorf("Title = %q, %v; want playchat", title, err)
	}
	menu := client.Object(reg.sender, menuPath)

	items := readMenu(t, menu)
	want := []string{"Open playchat", "New chat", "Today 09:00  燃えるゴミ", "Today 10:00  dentist", "Today 11:00  call mum",
		"Pause notifications for 1 hour", "Quit"}
	if got := visibleLabels(items); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("menu = %q\nwant %q", got, want)
	}

	// Choosing a reminder, Open and Pause reach their callbacks.
	click(t, menu, items, "Today 10:00  dentist")
	if r := waitFor(t, chosen, "the reminder callback"); r.ID != 2 || r.SessionID != "sdentist" {
		t.Errorf("chose reminder %d (%q), want 2", r.ID, r.SessionID)
	}
	click(t, menu, items, "Open playchat")
	waitFor(t, opened, "the open callback")
	refreshed := tr.refreshedAfter()
	click(t, menu, items, "Pause notifications for 1 hour")
	waitFor(t, refreshed, "a refresh after Pause")
	if until, ok := pause.Until(); !ok || !until.Equal(now.Add(PauseFor)) {
		t.Errorf("after Pause: paused until %v (%v), want %v", until, ok, now.Add(PauseFor))
	}
	items = readMenu(t, menu)
	if p := find(t, items, "Notifications paused until 09:00 (click to resume)"); p.toggle != 1 {
		t.Errorf("the Pause item is not checked while paused: %+v", p)
	}

	// A reminder delivered while the window is hidden badges the icon;
	// the language follows the setting.
	refreshed = tr.refreshedAfter()
	tr.SetWindowVisible(false)
	waitFor(t, refreshed, "a refresh after hiding the window")
	refreshed = tr.refreshedAfter()
	langMu.Lock()
	lang = "ja"
	langMu.Unlock()
	src.update(func(rs []reminders.Reminder) {
		at := now.Add(time.Minute)
		rs[0].State, rs[0].NotifiedAt = reminders.StateDelivered, &at
	})
	waitFor(t, refreshed, "a refresh after a delivery")
	if !tr.Badged() {
		t.Error("no badge after a delivery with the window hidden")
	}
	var pix []struct {
		W, H int32
		Pix  []byte
	}
	if err := item.Call("org.freedesktop.DBus.Properties.Get", 0, "org.kde.StatusNotifierItem", "IconPixmap").Store(&pix); err != nil || len(pix) != 1 {
		t.Fatalf("IconPixmap = %v, %v", pix, err)
	}
	cx, cy := IconSize-IconSize/5-IconSize/32-1, IconSize/5+IconSize/32+1
	if px := pix[0].Pix[(cy*IconSize+cx)*4:][:4]; pix[0].W != IconSize || !bytes.Equal(px, []byte{0xFF, 0xE5, 0x39, 0x35}) {
		t.Errorf("IconPixmap %d px wide, ARGB at the badge = % x; want %d and the badge red", pix[0].W, px, IconSize)
	}
	items = readMenu(t, menu)
	wantJA := []string{"playchat を開く", "新しいチャット", "今日 10:00  dentist", "今日 11:00  call mum", "今日 12:00  fourth",
		"Discord: playchat-bot として接続中", "通知を 09:00 まで停止中（クリックで再開）", "終了"}
	if got := visibleLabels(items); strings.Join(got, "|") != strings.Join(wantJA, "|") {
		t.Errorf("Japanese menu = %q\nwant %q", got, wantJA)
	}
	refreshed = tr.refreshedAfter()
	tr.SetWindowVisible(true)
	waitFor(t, refreshed, "a refresh after showing the window")
	if tr.Badged() {
		t.Error("the badge stays after the window was shown")
	}

	click(t, menu, items, "終了")
	waitFor(t, quit, "the quit callback")
}

type menuItem struct {
	id      int32
	label   string
	visible bool
	toggle  int32
}

func readMenu(t *testing.T, menu dbus.BusObject) []menuItem {
	t.Helper()
	var rev uint32
	var root struct {
		ID       int32
		Props    map[string]dbus.Variant
		Children []dbus.Variant
	}
	if err := menu.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root); err != nil {
		t.Fatal("GetLayout:", err)
	}
	var out []menuItem
	for _, c := range root.Children {
		fields, ok := c.Value().([]any)
		if !ok || len(fields) != 3 {
			t.Fatalf("menu child %v is not (id, props, children)", c)
		}
		props, _ := fields[1].(map[string]dbus.Variant)
		if typ, _ := props["type"].Value().(string); typ == "separator" {
			continue
		}
		it := menuItem{id: fields[0].(int32), visible: true}
		it.label, _ = props["label"].Value().(string)
		if v, ok := props["visible"]; ok {
			it.visible, _ = v.Value().(bool)
		}
		if v, ok := props["toggle-state"]; ok {
			it.toggle, _ = v.Value().(int32)
		}
		out = append(out, it)
	}
	return out
}

func visibleLabels(items []menuItem) []string {
	var out []string
	for _, it := range items {
		if it.visible {
			out = append(out, it.label)
		}
	}
	return out
}

func find(t *testing.T, items []menuItem, label string) menuItem {
	t.Helper()
	for _, it := range items {
		if it.label == label && it.visible {
			return it
		}
	}
	t.Fatalf("no visible menu item %q in %+v", label, items)
	return menuItem{}
}

func click(t *testing.T, menu dbus.BusObject, items []menuItem, label string) {
	t.Helper()
	it := find(t, items, label)
	if err := menu.Call("com.canonical.dbusmenu.Event", 0, it.id, "clicked", dbus.MakeVariant(""), uint32(0)).Err; err != nil {
		t.Fatalf("click %q: %v", label, err)
	}
}

func TestMain(m *testing.M) {
	// Nothing here may touch the real session bus.
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
	os.Exit(m.Run())
}
