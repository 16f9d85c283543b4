package app

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"playchat/backend/event"
)

var updateEvents = flag.Bool("update-events", false, "rewrite frontend/src/api/events.ts from WindowEvents()")

// tsTypes writes TypeScript for Go types as encoding/json encodes them:
// named structs become interfaces (declared once, by their Go name),
// time.Time and []byte strings, pointers `T | null`, maps Records, any
// unknown. Fields follow their json tags (omitempty: optional); embedded
// structs without a tag are flattened, as encoding/json does.
type tsTypes struct {
	decls map[string]string
	types map[string]reflect.Type
	order []string
}

func (g *tsTypes) of(t reflect.Type) (string, error) {
	if t == reflect.TypeFor[time.Time]() {
		return "string", nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		s, err := g.of(t.Elem())
		return s + " | null", err
	case reflect.String:
		return "string", nil
	case reflect.Bool:
		return "boolean", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number", nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string", nil
		}
		s, err := g.of(t.Elem())
		if strings.Contains(s, " ") {
			s = "(" + s + ")"
		}
		return s + "[]", err
	case reflect.Map:
		s, err := g.of(t.Elem())
		return "Record<string, " + s + ">", err
	case reflect.Interface:
		return "unknown", nil
	case reflect.Struct:
		if t.Name() == "" {
			return g.fields(t)
		}
		name := tsName(t)
		if prev, ok := g.types[name]; ok {
			if prev != t {
				return "", fmt.Errorf("two payload types are called %s: %v and %v", name, prev, t)
			}
			return name, nil
		}
		g.types[name] = t
		body, err := g.fields(t)
		if err != nil {
			return "", err
		}
		g.decls[name] = fmt.Sprintf("/** %s.%s (Go) as the window receives it. */\nexport interface %s %s\n", t.PkgPath(), t.Name(), name, body)
		g.order = append(g.order, name)
		return name, nil
	}
	return "", fmt.Errorf("no TypeScript for %v", t)
}

// tsName is a named struct's TypeScript name: its Go name, after its
// package's for a type outside app/ (apperr.Info: ApperrInfo), so that
// generic names (Info, Update) say where they come from.
func tsName(t reflect.Type) string {
	pkg := filepath.Base(t.PkgPath())
	if pkg == "app" {
		return t.Name()
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + t.Name()
}

func (g *tsTypes) fields(t reflect.Type) (string, error) {
	var b strings.Builder
	b.WriteString("{\n")
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				if err := walk(f.Type); err != nil {
					return err
				}
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			ft, opt := f.Type, ""
			if strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") {
				// Left out when empty: a nil pointer is never sent as null.
				opt = "?"
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
			}
			ts, err := g.of(ft)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
			fmt.Fprintf(&b, "  %s%s: %s\n", name, opt, ts)
		}
		return nil
	}
	if err := walk(t); err != nil {
		return "", err
	}
	b.WriteString("}")
	return b.String(), nil
}

// frontendEvents is frontend/src/api/events.ts as WindowEvents and
// TurnEventPayloads describe it.
func frontendEvents() (string, error) {
	g := &tsTypes{decls: map[string]string{}, types: map[string]reflect.Type{}}
	var consts, payloads, turn strings.Builder
	for _, p := range TurnEventPayloads() {
		value := ""
		if p.Payload != nil {
			ts, err := g.of(p.Payload)
			if err != nil {
				return "", err
			}
			value = "; value: " + ts
		}
		fmt.Fprintf(&turn, "  | { type: '%s'%s }\n", p.Type, value)
	}
	names := map[string]bool{}
	for _, e := range WindowEvents() {
		if names[e.Name] || names[e.Const] {
			return "", fmt.Errorf("event %s (%s) is listed twice", e.Name, e.Const)
		}
		names[e.Name], names[e.Const] = true, true
		data := "undefined"
		switch {
		case e.Payload == reflect.TypeFor[event.Event]():
			data = "TurnEvent"
		case e.Payload != nil:
			ts, err := g.of(e.Payload)
			if err != nil {
				return "", fmt.Errorf("%s: %w", e.Name, err)
			}
			data = ts
		}
		what := "The event's name"
		if e.PerID {
			what = "The start of the event's name (the item's id follows)"
		}
		fmt.Fprintf(&consts, "/** %s. %s Data: %s. */\nexport const %s = '%s'\n", what, e.Doc, data, e.Const, e.Name)
		if !e.PerID {
			fmt.Fprintf(&payloads, "  [%s]: %s\n", e.Const, data)
		} else {
			fmt.Fprintf(&payloads, "  [key: `${typeof %s}${string}`]: %s\n", e.Const, data)
		}
	}
	var out strings.Builder
	out.WriteString("// Generated from app.WindowEvents (app/events.go) by `go test ./app -run TestFrontendEventContract -update-events`. Do not edit.\n")
	out.WriteString("// The events the backend sends the window: their names and the types of their data.\n\n")
	decls := append([]string(nil), g.order...)
	sort.Strings(decls)
	for _, n := range decls {
		out.WriteString(g.decls[n])
		out.WriteString("\n")
	}
	out.WriteString("/** One event of a chat turn's stream, discriminated by type (backend/event). */\nexport type TurnEvent =\n")
	out.WriteString(turn.String())
	out.WriteString("\n")
	out.WriteString(consts.String())
	out.WriteString("\n/** The data each event carries, by name (undefined: none). */\nexport interface EventPayloads {\n")
	out.WriteString(payloads.String())
	out.WriteString("}\n")
	return out.String(), nil
}

// TestFrontendEventContractIsCurrent keeps frontend/src/api/events.ts equal
// to what WindowEvents generates; run with -update-events to rewrite it.
func TestFrontendEventContractIsCurrent(t *testing.T) {
	want, err := frontendEvents()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "frontend", "src", "api", "events.ts")
	if *updateEvents {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run go test ./app -run TestFrontendEventContract -update-events", path)
	}
}

// TestEveryEmittedEventIsInTheContract reads app/'s sources: every name
// given to Emit is a constant of WindowEvents, so no event reaches the window
// without its generated name and type.
func TestEveryEmittedEventIsInTheContract(t *testing.T) {
	listed := map[string]bool{}
	for _, e := range WindowEvents() {
		listed[e.Name] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{
		"EventRemindersChanged": EventRemindersChanged, "EventReminderFired": EventReminderFired,
		"EventReminderOpen": EventReminderOpen, "EventTrayNewChat": EventTrayNewChat,
		"EventTrayOpenSession": EventTrayOpenSession, "ToolsChangedEvent": ToolsChangedEvent,
		"EventBackgroundPanic": EventBackgroundPanic, "EventBackupProgress": EventBackupProgress,
		"EventBackupResult": EventBackupResult, "EventTagsUpdated": EventTagsUpdated,
		"EventTagsPaused": EventTagsPaused, "EventDiscordStatus": EventDiscordStatus,
		"EventSessionChanged": EventSessionChanged,
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range []string{"p.Emit(", "a.emit(", "\temit("} {
			for rest := string(src); ; {
				i := strings.Index(rest, call)
				if i < 0 {
					break
				}
				rest = rest[i+len(call):]
				arg, _, _ := strings.Cut(rest, ",")
				seen++
				switch name, ok := consts[arg]; {
				case ok && listed[name]:
				case arg == "name" || arg == "data" || strings.HasPrefix(arg, "name string"):
					// The forwarding helpers (emit, the reminders' emit), the
					// per-id names (built from a listed prefix: kbDropEventPrefix,
					// event.TurnEventName) and Platform.Emit's own declaration.
				default:
					t.Errorf("%s emits %s, which WindowEvents does not list", f, arg)
				}
			}
		}
	}
	if seen < len(consts) {
		t.Errorf("found %d Emit calls, fewer than the %d events: the source scan is broken", seen, len(consts))
	}
}
