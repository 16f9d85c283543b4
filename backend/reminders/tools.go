package reminders

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/layer"
	"playchat/backend/tools"
)

// Tool names, as the model calls them.
const (
	CreateReminderTool = "create_reminder"
	ListRemindersTool  = "list_reminders"
	CancelReminderTool = "cancel_reminder"
)

const createReminderSchema = `{
  "type": "object",
  "properties": {
    "content": {"type": "string", "description": "What to remind the user of, in the user's language (e.g. 燃えるゴミを出す)."},
    "due": {"type": "string", "description": "When, as a local date-time computed from the current local time given in the context: 2026-12-01T09:00 or 2026-12-01T09:00:30 (keep seconds for relative times such as 'in 1 minute'). An offset such as +09:00 may be added."},
    "repeat": {"type": "string", "description": "Optional RFC 5545 RRULE for a repeating reminder, e.g. FREQ=DAILY, FREQ=WEEKLY;BYDAY=MO,WE, FREQ=MONTHLY;BYMONTHDAY=1. It repeats at the due time's local wall-clock time. Omit for a one-time reminder."}
  },
  "required": ["content", "due"],
  "additionalProperties": false
}`

const listRemindersSchema = `{"type": "object", "properties": {}, "additionalProperties": false}`

const cancelReminderSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "integer", "description": "The reminder id, as list_reminders or create_reminder showed it."}
  },
  "required": ["id"],
  "additionalProperties": false
}`

type createArgs struct {
	Content string `json:"content"`
	Due     string `json:"due"`
	Repeat  string `json:"repeat"`
}

type cancelArgs struct {
	ID *int64 `json:"id"`
}

// Tools returns the reminder tools for the registry: create_reminder
// {content, due, repeat?}, list_reminders {} and cancel_reminder {id}. Their
// errors (a due time in the past, too far ahead or unreadable; a bad rule;
// an unknown id) go back to the model as the tool result, so it asks the
// user again rather than set a wrong time.
//
// A call with a Requester (a turn from Discord) works for that person
// only: create_reminder stores the requester's origin, channel and user
// (delivered to that channel, mentioning them); list_reminders and
// cancel_reminder see only that user's reminders, and another person's id
// is "not found" exactly like a missing one. A call without a Requester
// (the window, the CLI) sees every reminder.
func Tools(svc *Service) []tools.Tool {
	return []tools.Tool{
		{
			Name: CreateReminderTool,
			Description: "Set a reminder: at the due time the user gets a notification with the content " +
				"(on the desktop, or a mention in the Discord channel when asked from Discord). " +
				"Use it when the user asks to be reminded or notified of something later (「〜って教えて」「リマインドして」). " +
				"Compute due from the current local date and time in the context; if the time is unclear, ask first.",
			Parameters: json.RawMessage(createReminderSchema),
			Label:      "Set reminder",
			Detail: func(args json.RawMessage) string {
				var a createArgs
				_ = json.Unmarshal(args, &a)
				return strings.TrimSpace(a.Due + " " + a.Content)
			},
			Run: func(ctx context.Context, call tools.Call) (tools.Result, error) { return svc.createTool(ctx, call) },
		},
		{
			Name:        ListRemindersTool,
			Description: "List the user's pending reminders (id, local due time, repeat rule, content).",
			Parameters:  json.RawMessage(listRemindersSchema),
			Label:       "List reminders",
			Run:         func(ctx context.Context, call tools.Call) (tools.Result, error) { return svc.listTool(ctx, call) },
		},
		{
			Name:        CancelReminderTool,
			Description: "Cancel a pending reminder (and all its repeats) by id. Use list_reminders first when you do not know the id.",
			Parameters:  json.RawMessage(cancelReminderSchema),
			Label:       "Cancel reminder",
			Detail: func(args json.RawMessage) string {
				var a map[string]any
				_ = json.Unmarshal(args, &a)
				if id, ok := a["id"].(float64); ok {
					return fmt.Sprintf("#%v", id)
				}
				return ""
			},
			Run: func(ctx context.Context, call tools.Call) (tools.Result, error) { return svc.cancelTool(ctx, call) },
		},
	}
}

// Describe writes one reminder for the model and the CLI:
// "[id 3] 2026-12-01 09:00:00 (Tue, Asia/Tokyo) · repeats FREQ=DAILY · pending — text".
func Describe(r Reminder) string {
	loc := r.Location()
	local := r.DueAt.In(loc)
	var b strings.Builder
	fmt.Fprintf(&b, "[id %d] %s (%s, %s)", r.ID, local.Format("2006-01-02 15:04:05"), local.Format("Mon"), loc.String())
	if rep := r.Repeat(); rep != "" {
		b.WriteString(" · repeats " + rep)
	}
	b.WriteString(" · " + string(r.State))
	if r.Late {
		b.WriteString(" (late)")
	}
	if r.Error != "" {
		b.WriteString(" (error: " + r.Error + ")")
	}
	b.WriteString(" — " + r.Content)
	return b.String()
}

func (s *Service) createTool(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a createArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	n := NewReminder{Content: a.Content, Due: a.Due, Repeat: a.Repeat, SessionID: call.SessionID}
	if q := call.Requester; q != nil {
		n.Origin, n.ChannelID, n.UserID, n.UserName = requesterOrigin(q), q.ChannelID, q.UserID, q.UserName
	}
	r, err := s.Create(ctx, n)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Content: "Reminder set: " + Describe(r) + "\nTell the user the local date and time it will fire."}, nil
}

func (s *Service) listTool(ctx context.Context, call tools.Call) (tools.Result, error) {
	if err := tools.DecodeArgs(call.Args, &struct{}{}); err != nil {
		return tools.Result{}, err
	}
	var rs []Reminder
	if q := call.Requester; q == nil || q.UserID != "" { // a requester without a user id owns nothing
		var err error
		if rs, err = s.List(ctx, scopeOf(q)); err != nil {
			return tools.Result{}, err
		}
	}
	if len(rs) == 0 {
		return tools.Result{Content: "No pending reminders."}, nil
	}
	lines := make([]string, len(rs))
	for i, r := range rs {
		lines[i] = Describe(r)
	}
	return tools.Result{Content: fmt.Sprintf("%d pending reminders:\n%s", len(rs), strings.Join(lines, "\n"))}, nil
}

func (s *Service) cancelTool(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a cancelArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	if a.ID == nil {
		return tools.Result{}, fmt.Errorf(`invalid arguments: "id" is required`)
	}
	if q := call.Requester; q != nil {
		// Another person's reminder answers exactly like a missing one.
		r, err := s.Get(ctx, *a.ID)
		if err != nil {
			return tools.Result{}, err
		}
		if !owns(q, r) {
			return tools.Result{}, apperr.New(apperr.ReminderNotFound, map[string]any{"id": *a.ID})
		}
	}
	r, err := s.Cancel(ctx, *a.ID)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Content: "Cancelled: " + Describe(r)}, nil
}

// requesterOrigin is the Origin stored for a reminder q asked for
// (OriginDiscord when q names none).
func requesterOrigin(q *tools.Requester) string {
	if q.Origin == "" {
		return OriginDiscord
	}
	return q.Origin
}

// scopeOf lists the active reminders q may see: all of them for the window
// (nil), else only the requester's own.
func scopeOf(q *tools.Requester) ListOptions {
	if q == nil {
		return ListOptions{}
	}
	return ListOptions{Origin: requesterOrigin(q), UserID: q.UserID}
}

// owns reports whether r belongs to q (same origin and user).
func owns(q *tools.Requester, r Reminder) bool {
	return q.UserID != "" && r.Origin == requesterOrigin(q) && r.UserID == q.UserID
}

// ClockLayerName is the clock layer's name (layer.Block.Layer).
const ClockLayerName = "clock"

// ClockLayer returns a context layer stating, on every turn, the current
// local date, weekday, time (with seconds) and zone, so the model resolves
// 「明日」「30分後」 to a due time. Its one block is small and never cut.
func ClockLayer(svc *Service) layer.Layer { return clockLayer{svc} }

type clockLayer struct{ svc *Service }

func (clockLayer) Name() string { return ClockLayerName }

// Priority: the block is tiny and a relative time resolved without it is
// wrong, so it gets its room first.
func (clockLayer) Priority() int { return layer.PriorityUserChoice + 10 }

func (l clockLayer) Build(_ context.Context, _ layer.Query) ([]layer.Block, error) {
	return []layer.Block{{Layer: ClockLayerName, Text: ClockText(l.svc.Now(), l.svc.Zone())}}, nil
}

// ClockText is the clock layer's text for now in loc, e.g. "# Current time\n
// It is now Tuesday 2026-12-01 10:00:45 (Asia/Tokyo, UTC+09:00). …".
func ClockText(now time.Time, loc *time.Location) string {
	l := now.In(loc)
	return "# Current time\nIt is now " + l.Format("Monday 2006-01-02 15:04:05") + " (" + loc.String() + ", UTC" +
		l.Format("-07:00") + "). Resolve relative times (tomorrow, in 30 minutes, 明日, 30分後) from this local time; " +
		"give reminder due times as local date-times with seconds when they matter."
}
