// Command fakellm runs the llmtest fake OpenAI-compatible server on its own,
// for the desktop e2e test and benchmarks. Once listening it prints
// "FAKELLM_URL=<base URL ending in /v1>" on stdout and serves until SIGINT or
// SIGTERM.
//
//	fakellm -addr 127.0.0.1:0 -reply "hello" -chunks 8 -first-byte-delay 300ms -chunk-delay 20ms
//	fakellm -script replies.json   # JSON list of llmtest.Response, consumed in order
//	fakellm -reply-len 20000 -delta-size 1 -rate 0   # a flood: 20,000 one-character deltas, no pause
//
// The script may also be given with the FAKELLM_SCRIPT environment variable.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"playchat/backend/llm/llmtest"
)

func main() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	if err := run(os.Args[1:], os.Stdout, sig); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
}

// run serves until stop receives; it prints the URL line on out.
func run(args []string, out io.Writer, stop <-chan os.Signal) error {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	reply := fs.String("reply", "", `default reply text (default "fake reply: <last user message>")`)
	chunks := fs.Int("chunks", 4, "split the default reply into N chunks")
	firstByte := fs.Duration("first-byte-delay", 0, "delay before the first byte of the default reply")
	chunkDelay := fs.Duration("chunk-delay", 0, "delay between chunks of the default reply")
	deltaSize := fs.Int("delta-size", 0, "cut the default reply into deltas of N runes (overrides -chunks)")
	replyLen := fs.Int("reply-len", 0, "default reply: a generated Markdown text of N runes (llmtest.FillerText)")
	longTrigger := fs.String("long-trigger", "", "a user message containing this word gets a generated reply of -long-len runes")
	longLen := fs.Int("long-len", 4000, "length in runes of the -long-trigger reply")
	rate := fs.Float64("rate", 0, "deltas per second of the default reply (overrides -chunk-delay; 0 = as fast as possible unless -chunk-delay is set)")
	script := fs.String("script", os.Getenv("FAKELLM_SCRIPT"), "JSON file with a list of scripted responses (env FAKELLM_SCRIPT)")
	models := fs.String("models", "", "comma-separated model ids for /v1/models")
	dim := fs.Int("embedding-dim", 8, "dimension of /v1/embeddings vectors")
	requestLog := fs.String("request-log", "", "append the body of every chat completions request to this file, one JSON line each")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rate > 0 {
		*chunkDelay = time.Duration(float64(time.Second) / *rate)
	}
	if *replyLen > 0 && *reply == "" {
		*reply = llmtest.FillerText(*replyLen)
	}
	opts := []llmtest.Option{
		llmtest.WithChunks(*chunks),
		llmtest.WithDeltaSize(*deltaSize),
		llmtest.WithLatency(*firstByte, *chunkDelay),
		llmtest.WithEmbeddingDim(*dim),
	}
	if *reply != "" {
		opts = append(opts, llmtest.WithReply(*reply))
	}
	if *models != "" {
		opts = append(opts, llmtest.WithModels(strings.Split(*models, ",")...))
	}
	if *longTrigger != "" {
		short, size, delay := *reply, *deltaSize, *chunkDelay
		n, trigger, long := *chunks, *longTrigger, *longLen
		opts = append(opts, llmtest.WithDefault(func(rec llmtest.RecordedRequest) llmtest.Response {
			last := rec.LastUserMessage()
			text := short
			if strings.Contains(last, trigger) {
				text = llmtest.FillerText(long)
			} else if text == "" {
				text = "fake reply: " + last
			}
			r := llmtest.Response{Reply: text, DeltaSize: size, ChunkDelay: delay}
			if size == 0 {
				r.Chunks = llmtest.SplitText(text, n)
			}
			return r
		}))
	}
	var scripted []llmtest.Response
	if *script != "" {
		f, err := os.Open(*script)
		if err != nil {
			return err
		}
		scripted, err = llmtest.LoadScript(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	if *requestLog != "" {
		f, err := os.OpenFile(*requestLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		opts = append(opts, llmtest.WithRequestLog(f))
	}
	srv, err := llmtest.Start(*addr, opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.Enqueue(scripted...)
	fmt.Fprintf(out, "FAKELLM_URL=%s\n", srv.URL)
	<-stop
	return nil
}
