package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"playchat/backend/event"
	"playchat/backend/tools"
)

// Decisions on a call that needs approval.
const (
	AllowOnce   = "once"
	AllowAlways = "always" // for this server, stored
	Deny        = "deny"
)

// ErrNeedsApproval is a call refused because nobody could approve it.
var ErrNeedsApproval = errors.New("this tool needs approval in the playchat window before it runs")

// Approvals holds the calls waiting for the user's click in the activity
// list: the window's turns wait here, Decide answers them.
type Approvals struct {
	mu      sync.Mutex
	pending map[string]chan string
}

// NewApprovals returns an empty set.
func NewApprovals() *Approvals { return &Approvals{pending: map[string]chan string{}} }

// Decide answers the call callID waits for; false if none waits.
func (a *Approvals) Decide(callID, decision string) bool {
	a.mu.Lock()
	ch := a.pending[callID]
	delete(a.pending, callID)
	a.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- decision
	return true
}

// register makes callID's decision awaitable: call it before the window
// is asked, so a click that comes at once is never lost (Decide before
// register found no one waiting and the call waited for ever).
func (a *Approvals) register(callID string) chan string {
	ch := make(chan string, 1)
	a.mu.Lock()
	a.pending[callID] = ch
	a.mu.Unlock()
	return ch
}

// wait returns the decision sent on ch (from register) or ctx's error.
func (a *Approvals) wait(ctx context.Context, callID string, ch chan string) (string, error) {
	defer func() {
		a.mu.Lock()
		delete(a.pending, callID)
		a.mu.Unlock()
	}()
	select {
	case d := <-ch:
		return d, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// SetApprovals lets the window's turns ask the user (nil: calls that need
// approval are refused with ErrNeedsApproval, as in the CLI).
func (m *Manager) SetApprovals(a *Approvals) {
	m.mu.Lock()
	m.approvals = a
	m.mu.Unlock()
}

// emptySchema is sent for a tool that declares no input schema.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// Tools implements tools.Source: the enabled tools of the ready servers.
// A server not allowed for Discord gives Private tools (never offered to,
// and refused for, a turn from outside the window).
func (m *Manager) Tools() []tools.Tool {
	offered := m.Offer(false)
	out := make([]tools.Tool, 0, len(offered))
	for _, o := range offered {
		schema, err := json.Marshal(o.Tool.InputSchema)
		var obj map[string]any
		if err != nil || o.Tool.InputSchema == nil || json.Unmarshal(schema, &obj) != nil || obj == nil {
			schema = emptySchema
		} else if _, ok := obj["type"]; !ok {
			obj["type"] = "object"
			schema, _ = json.Marshal(obj)
		}
		desc := o.Tool.Description
		if desc == "" {
			desc = o.Tool.Title
		}
		desc = fmt.Sprintf("[%s] %s", o.Server, desc)
		o := o
		out = append(out, tools.Tool{Name: o.ModelName, Description: clip(desc, 1024), Parameters: schema,
			Server: o.Server, RealName: o.Tool.Name, Optional: true, Private: !o.AllowDiscord,
			Run: func(ctx context.Context, c tools.Call) (tools.Result, error) { return m.run(ctx, o, c) }})
	}
	return out
}

func (m *Manager) run(ctx context.Context, o Offered, c tools.Call) (tools.Result, error) {
	// The decision is made with the configuration as it is now (an
	// "always" given during this turn applies).
	if cur, ok := m.Lookup(o.ModelName, false); ok {
		o = cur
	}
	if o.NeedsApproval {
		if c.Requester != nil {
			return tools.Result{}, fmt.Errorf("%w; it cannot be approved from %s", ErrNeedsApproval, c.Requester.Origin)
		}
		m.mu.Lock()
		a := m.approvals
		m.mu.Unlock()
		if a == nil || c.Report == nil {
			return tools.Result{}, ErrNeedsApproval
		}
		ch := a.register(c.ID)
		c.Report(event.ToolActivity{ID: c.ID, Status: "running", Server: o.Server, Approval: true})
		d, err := a.wait(ctx, c.ID, ch)
		if err != nil {
			return tools.Result{}, err // the call's end event closes the item
		}
		c.Report(event.ToolActivity{ID: c.ID, Status: "running", Server: o.Server, Decision: d})
		switch d {
		case AllowOnce:
		case AllowAlways:
			if err := m.allowAlways(o.Server); err != nil {
				m.log.Warn("MCP allow always", "server", o.Server, "err", err)
			}
		default:
			return tools.Result{Content: "The user declined this call of " + o.Tool.Name + "."}, errors.New("the user declined the call")
		}
	}
	res, err := m.Call(ctx, o.Server, o.Tool.Name, c.Args)
	if err != nil {
		return tools.Result{}, err
	}
	out := tools.Result{Content: res.Text, IsError: res.IsError}
	for _, im := range res.Images {
		out.Images = append(out.Images, tools.Image{MIMEType: im.MIMEType, Data: im.Data})
	}
	return out, nil
}

func (m *Manager) allowAlways(server string) error {
	_, err := m.store.Update(func(c *Config) error {
		for i := range c.Servers {
			if c.Servers[i].Name == server {
				c.Servers[i].AlwaysAllow = true
			}
		}
		return nil
	})
	if err == nil {
		err = m.Reload()
	}
	return err
}
