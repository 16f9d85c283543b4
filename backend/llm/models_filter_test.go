package llm

import "testing"

// Issue 22: the model picker offered an embedding model as a chat model.
func TestOnlyChatModelsAreListed(t *testing.T) {
	for id, chat := range map[string]bool{
		"gpt-4o-mini": true, "llama3.1:8b": true, "qwen2.5:7b-instruct": true, "claude-3-5-sonnet-latest": true,
		"text-embedding-3-small": false, "nomic-embed-text:latest": false, "mxbai-embed-large": false,
		"bge-m3": false, "multilingual-e5-large": false, "whisper-1": false, "tts-1": false, "dall-e-3": false,
		"omni-moderation-latest": false, "jina-reranker-v2": false,
	} {
		if got := IsChatModel(id); got != chat {
			t.Errorf("IsChatModel(%q) = %v, want %v", id, got, chat)
		}
	}
}
