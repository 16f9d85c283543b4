package llm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// Embed returns one embedding vector per input, in input order, from the
// model named by model ("provider/model", e.g. "openai/text-embedding-3-small"
// or "ollama/nomic-embed-text"). No inputs: nil, nil without a request.
// Retries as for Stream; errors are ResolveModel's, *APIError, transport
// errors, or a plain error when the provider returns the wrong number of
// vectors. Not recorded in api_logs.
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	ep, err := ResolveModel(model, c.Providers())
	if err != nil {
		return nil, err
	}
	var data []openai.Embedding
	err = c.withRetry(ctx, ep, "embed", func() (bool, error) {
		oc, st := c.openaiClient(ep)
		resp, err := oc.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
			Input: inputs,
			Model: openai.EmbeddingModel(ep.Model),
		})
		if err != nil {
			return false, wrapErr(ctx, err, st)
		}
		data = resp.Data
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return orderEmbeddings(data, len(inputs))
}

// orderEmbeddings places each vector at its index; a provider that leaves
// every index 0 is taken in the order sent.
func orderEmbeddings(data []openai.Embedding, n int) ([][]float32, error) {
	if len(data) != n {
		return nil, fmt.Errorf("embeddings: provider returned %d vectors for %d inputs", len(data), n)
	}
	out := make([][]float32, n)
	for _, d := range data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			out = nil
			break
		}
		out[d.Index] = d.Embedding
	}
	if out == nil {
		out = make([][]float32, n)
		for i, d := range data {
			out[i] = d.Embedding
		}
	}
	return out, nil
}

// ListModels asks provider's /models endpoint and returns its models as
// sorted, de-duplicated "provider/model" strings. provider is one of the
// Provider* prefixes (a trailing '/' is tolerated). Errors: ErrUnknownProvider,
// ErrMissingKey, *APIError, transport errors. Not retried, not recorded.
//
// Only chat models are listed: embedding, reranking, speech, image and
// moderation models a server also serves are left out (IsChatModel) — the
// model picker offered an embedding model as a chat model (issue 22).
func (c *Client) ListModels(ctx context.Context, provider string) ([]string, error) {
	prov := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(provider)), "/")
	ep, err := resolveProvider(prov, c.Providers())
	if err != nil {
		return nil, err
	}
	oc, st := c.openaiClient(ep)
	list, err := oc.ListModels(ctx)
	if err != nil {
		return nil, wrapErr(ctx, err, st)
	}
	out := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID != "" && IsChatModel(m.ID) {
			out = append(out, prov+"/"+m.ID)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Reachable reports whether provider's base URL answers GET /models with a
// 2xx within ctx (used to offer a local Ollama on first run). A provider that
// does not resolve (unknown, missing key) is not reachable. The caller bounds
// the wait with ctx's deadline.
func (c *Client) Reachable(ctx context.Context, provider string) bool {
	_, err := c.ListModels(ctx, provider)
	return err == nil
}

// notChatModels are the marks of model ids that do not chat: embeddings
// (text-embedding-3-small, nomic-embed-text, mxbai-embed-large, bge-m3,
// multilingual-e5-large), rerankers, speech (whisper, tts), images
// (dall-e, gpt-image) and moderation.
var notChatModels = []string{"embed", "rerank", "whisper", "tts", "transcribe", "dall-e", "gpt-image",
	"moderation", "bge-", "bge_", "e5-", "text-search", "similarity"}

// IsChatModel reports whether a model id (without the provider prefix, as
// a /models endpoint lists it) names a model that answers chat requests.
// It goes by the name, the only thing every OpenAI-compatible server
// reports.
func IsChatModel(id string) bool {
	l := strings.ToLower(id)
	for _, m := range notChatModels {
		if strings.Contains(l, m) {
			return false
		}
	}
	return true
}
