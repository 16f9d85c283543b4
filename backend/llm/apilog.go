package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// sinkTimeout bounds one LogSink call; the sink runs even after the call's
// ctx was cancelled (a stopped stream is still recorded).
const sinkTimeout = 5 * time.Second

// CanceledLogError is the api_logs error of a call cancelled by its caller
// (the user pressed Stop, or the app closed), which is not a provider
// failure.
const CanceledLogError = "cancelled (stopped by the user)"

// record sends one APILog for a Stream or Complete call. body is the request
// sent (nil when the model did not resolve); calls are rendered after the
// text. Keys are scrubbed from every field. Sink errors are logged only.
func (c *Client) record(ctx context.Context, req Request, ep Endpoint, body any, text string,
	calls []ToolCall, callErr error, start time.Time) {
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
		ResponseText: scrub(renderResponse(text, calls), ep.APIKey),
		LatencyMS:    time.Since(start).Milliseconds(),
		CreatedAt:    start.UTC(),
	}
	if body != nil {
		if b, err := json.Marshal(body); err == nil {
			l.RequestJSON = scrub(string(b), ep.APIKey)
		} else {
			c.log.Warn("llm: cannot encode request for api_logs", "err", err)
		}
	}
	if callErr != nil {
		l.Error = scrub(callErr.Error(), ep.APIKey)
		if errors.Is(callErr, context.Canceled) {
			l.Error = CanceledLogError
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
	b, err := json.Marshal(calls)
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
