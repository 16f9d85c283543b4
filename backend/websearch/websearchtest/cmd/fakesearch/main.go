// Command fakesearch runs the websearchtest fake web search server on its
// own, for the desktop end-to-end run. Once listening it prints
// "FAKESEARCH_URL=<root URL>" on stdout and serves until SIGINT or SIGTERM.
// Point TAVILY_BASE_URL, BRAVE_BASE_URL or SEARXNG_URL at that URL (with
// any non-empty key for Tavily and Brave).
//
//	fakesearch -addr 127.0.0.1:0
//	fakesearch -fail 429          # every search answers 429
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"playchat/backend/websearch/websearchtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	fail := flag.Int("fail", 0, "answer every search with this HTTP status (e.g. 429, 500)")
	flag.Parse()
	s, err := websearchtest.Start(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakesearch:", err)
		os.Exit(1)
	}
	s.Fail(*fail)
	fmt.Printf("FAKESEARCH_URL=%s\n", s.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	s.Close()
}
