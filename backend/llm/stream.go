package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
)

// Stream runs one streaming chat completion for req.Model ("provider/model").
//
// onDelta (may be nil) is called with every text delta, in order, from the
// calling goroutine. Tool-call deltas are accumulated (ToolCallAccumulator)
// and returned in StreamResult.ToolCalls / Truncated.
//
// The StreamResult is returned even on error: the partial Text so far,
// FirstByte, and whatever tool calls were complete. Failures before the first
// delta (HTTP 429, 5xx, connection errors) are retried as set by WithRetry;
// nothing is retried after the first delta. Errors:
//   - ResolveModel's errors (ErrNoModel, ErrUnknownProvider, ErrMissingKey);
//   - *APIError for a provider's error answer (errors.Is(err,
//     ErrToolsUnsupported) when the model rejects tools);
//   - ErrStreamInterrupted (wrapped) when the stream was cut mid-way;
//   - ctx.Err() when ctx is cancelled: reading stops at once.
//
// stream_options.include_usage is requested so PromptTokens and
// CompletionTokens are filled; a provider answering 400 about stream_options
// is asked once more without it. One APILog is recorded per call.
func (c *Client) Stream(ctx context.Context, req Request, onDelta func(text string)) (StreamResult, error) {
	start := time.Now()
	var res StreamResult
	ep, err := ResolveModel(req.Model, c.Providers())
	if err != nil {
		c.record(ctx, req, Endpoint{}, nil, "", nil, usage{}, err, start)
		return res, err
	}
	cr := c.chatRequest(ep, req)
	cr.Stream = true
	cr.StreamOptions = &openai.StreamOptions{IncludeUsage: true}

	acc := &ToolCallAccumulator{}
	var text strings.Builder
	err = c.withRetry(ctx, ep, "stream", func() (bool, error) {
		err := c.streamOnce(ctx, ep, cr, &res, acc, &text, onDelta)
		if err != nil && !res.FirstByte && cr.StreamOptions != nil && streamOptionsRejected(err) {
			c.log.Info("llm: provider rejects stream_options, retrying without", "provider", ep.Provider, "model", ep.Model)
			cr.StreamOptions = nil
			err = c.streamOnce(ctx, ep, cr, &res, acc, &text, onDelta)
		}
		if err != nil && !res.FirstByte && c.retryWithoutRefused(req.Model, err, &cr) {
			err = c.streamOnce(ctx, ep, cr, &res, acc, &text, onDelta)
		}
		return res.FirstByte, err
	})
	res.Text = text.String()
	res.ToolCalls, res.Truncated = acc.Result()
	c.record(ctx, req, ep, cr, res.Text, append(append([]ToolCall(nil), res.ToolCalls...), res.Truncated...),
		usage{res.PromptTokens, res.CompletionTokens}, err, start)
	return res, err
}

// streamOnce is one HTTP attempt of Stream. It resets res (text and acc are
// still empty when an attempt is retried, since retries stop at the first
// delta).
func (c *Client) streamOnce(ctx context.Context, ep Endpoint, cr openai.ChatCompletionRequest,
	res *StreamResult, acc *ToolCallAccumulator, text *strings.Builder, onDelta func(string)) error {
	*res = StreamResult{}
	oc, st := c.openaiClient(ep)
	stream, err := oc.CreateChatCompletionStream(ctx, cr)
	if err != nil {
		return wrapErr(ctx, err, st)
	}
	defer stream.Close()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if st.sawDone || res.FinishReason != "" {
				return nil // a missing [DONE] after a finish_reason is tolerated
			}
			return interrupted(apperr.New(apperr.LLMNoFinish, nil))
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var ae *APIError
			if errors.As(convertError(err, st), &ae) {
				return ae // an error event inside the stream
			}
			return interrupted(err)
		}
		if u := chunk.Usage; u != nil {
			res.PromptTokens, res.CompletionTokens = u.PromptTokens, u.CompletionTokens
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue // we never ask for n > 1
			}
			d := ch.Delta
			if d.Content != "" {
				res.FirstByte = true
				text.WriteString(d.Content)
				if onDelta != nil {
					onDelta(d.Content)
				}
			}
			if len(d.ToolCalls) > 0 {
				res.FirstByte = true
				acc.Add(d.ToolCalls)
			}
			if fc := d.FunctionCall; fc != nil && (fc.Name != "" || fc.Arguments != "") {
				// Legacy function_call streaming: no id, no index.
				res.FirstByte = true
				acc.Add([]openai.ToolCall{{Type: openai.ToolTypeFunction, Function: *fc}})
			}
			if ch.FinishReason != "" {
				res.FinishReason = string(ch.FinishReason)
			}
		}
	}
}

// streamOptionsRejected reports a 400 whose message mentions stream_options.
func streamOptionsRejected(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == http.StatusBadRequest &&
		strings.Contains(strings.ToLower(ae.Message), "stream_options")
}

// Complete runs one non-streamed chat completion (summaries, titles) and
// returns the reply text (tool calls, if the model made any, are only
// recorded in api_logs). Retries and errors are as for Stream, minus
// ErrStreamInterrupted; a reply without choices is an *APIError with
// StatusCode 0. One APILog is recorded per call.
func (c *Client) Complete(ctx context.Context, req Request) (string, error) {
	start := time.Now()
	ep, err := ResolveModel(req.Model, c.Providers())
	if err != nil {
		c.record(ctx, req, Endpoint{}, nil, "", nil, usage{}, err, start)
		return "", err
	}
	cr := c.chatRequest(ep, req)
	var text string
	var calls []ToolCall
	var used usage
	err = c.withRetry(ctx, ep, "complete", func() (bool, error) {
		oc, st := c.openaiClient(ep)
		resp, err := oc.CreateChatCompletion(ctx, cr)
		if err != nil {
			err = wrapErr(ctx, err, st)
			if !c.retryWithoutRefused(req.Model, err, &cr) {
				return false, err
			}
			oc, st = c.openaiClient(ep)
			if resp, err = oc.CreateChatCompletion(ctx, cr); err != nil {
				return false, wrapErr(ctx, err, st)
			}
		}
		if len(resp.Choices) == 0 {
			return false, &APIError{Message: "the reply has no choices"}
		}
		m := resp.Choices[0].Message
		text, calls = m.Content, m.ToolCalls
		used = usage{resp.Usage.PromptTokens, resp.Usage.CompletionTokens}
		return false, nil
	})
	c.record(ctx, req, ep, cr, text, calls, used, err, start)
	return text, err
}
