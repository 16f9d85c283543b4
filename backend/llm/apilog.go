package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"playchat/backend/apperr"
)

// sinkTimeout bounds one LogSink call; the sink runs even after the call's
// ctx was cancelled (a stopped stream is still recorded).
const sinkTimeout = 5 * time.Second

// CanceledLogError is the api_logs error of a call cancelled by its caller
// (the user pressed Stop, or the app closed), which is not a provider
// failure: apperr.LLMCancelled as apperr.Stored text.
var CanceledLogError = apperr.Stored(apperr.New(apperr.LLMCancelled, nil))

// usage is the token usage a provider reported for one call.
type usage struct{ prompt, completion int }

// record sends one APILog for a Stream or Complete call. body is the request
// sent (nil when the model did not resolve); calls are rendered after the
// text; u is the reported usage. Keys are scrubbed from every field. Sink
// errors are logged only.
func (c *Client) record(ctx context.Context, req Request, ep Endpoint, body any, text string,
	calls []ToolCall, u usage, callErr error, start time.Time) {
	if callErr != nil {
		c.log.Debug("llm: call failed", "model", req.Model, "latency", time.Since(start), "err", scrub(callErr.Error(), ep.APIKey))
	} else {
		c.log.Debug("llm: call done", "model", req.Model, "latency", time.Since(start))
	}
	if c.sink == nil {
		return
	}
	l := APILog{
		SessionID:    req.SessionID,
		Model:        req.Model,
		Purpose:      req.Purpose,
		ResponseText: scrub(renderResponse(text, calls), ep.APIKey),
		LatencyMS:    time.Since(start).Milliseconds(),
		CreatedAt:    start.UTC(),

		PromptTokens:     u.prompt,
		CompletionTokens: u.completion,
	}
	if body != nil {
		if b, err := marshalJSON(body); err == nil {
			l.RequestJSON = elideDataURLs(scrub(string(b), ep.APIKey))
		} else {
			c.log.Warn("llm: cannot encode request for api_logs", "err", err)
		}
	}
	if callErr != nil {
		l.Error = scrub(apperr.Stored(callErr), ep.APIKey)
		if errors.Is(callErr, context.Canceled) {
			l.Error = CanceledLogError
			// A caller that cancelled for a reason of its own (the reply
			// reached the message limit) gave it as the cause.
			if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
				l.Error = scrub(apperr.Stored(cause), ep.APIKey)
			}
		}
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sinkTimeout)
	defer cancel()
	if err := c.sink.RecordAPILog(sctx, l); err != nil {
		c.log.Warn("llm: recording api log failed", "model", req.Model, "err", err)
	}
}

// renderResponse is the reply text followed, if the model called tools, by
// a line "tool_calls: <JSON array>".
func renderResponse(text string, calls []ToolCall) string {
	if len(calls) == 0 {
		return text
	}
	b, err := marshalJSON(calls)
	if err != nil {
		return text
	}
	var sb strings.Builder
	sb.WriteString(text)
	if text != "" {
		sb.WriteString("\n")
	}
	sb.WriteString("tool_calls: ")
	sb.Write(b)
	return sb.String()
}

// marshalJSON encodes v as compact JSON without HTML escaping, so the log
// shows "&", "<" and ">" as sent rather than "\u0026", "\u003c", "\u003e".
// json.Marshal escapes them for embedding in HTML, and so do types with
// their own MarshalJSON (go-openai's messages), which an Encoder's
// SetEscapeHTML(false) cannot reach: those escapes are undone with
// unescapeHTML. No trailing newline.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return unescapeHTML(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// unescapeHTML turns the escapes \u0026, \u003c and \u003e of valid JSON
// back into "&", "<" and ">". An escaped backslash followed by "u0026"
// (the text \u0026 itself) is left alone.
func unescapeHTML(j []byte) []byte {
	if !bytes.Contains(j, []byte(`\u00`)) {
		return j
	}
	out := make([]byte, 0, len(j))
	for i := 0; i < len(j); i++ {
		if j[i] != '\\' || i+1 >= len(j) {
			out = append(out, j[i])
			continue
		}
		if j[i+1] == 'u' && i+6 <= len(j) {
			switch string(j[i+2 : i+6]) {
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			}
		}
		out = append(out, j[i], j[i+1]) // any other escape, kept whole
		i++
	}
	return out
}

// dataURLRe matches the base64 payload of a data URL in a JSON body.
var dataURLRe = regexp.MustCompile(`"data:([a-zA-Z0-9.+/-]+);base64,[A-Za-z0-9+/=]*"`)

// elideDataURLs replaces the payload of every data URL in a request body
// (an attached image: megabytes, sent again with every later turn) by its
// size, so api_logs keeps the shape of the request — the image_url part
// and its media type — without the bytes: "data:image/png;base64,…(N
// base64 characters)".
func elideDataURLs(body string) string {
	if !strings.Contains(body, ";base64,") {
		return body
	}
	return dataURLRe.ReplaceAllStringFunc(body, func(m string) string {
		i := strings.Index(m, ";base64,")
		return fmt.Sprintf("%s;base64,…(%d base64 characters)\"", m[:i], len(m)-i-len(";base64,")-1)
	})
}
