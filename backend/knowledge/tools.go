package knowledge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/tools"
	"playchat/backend/websearch"
)

// Tool names, as the model calls them; SaveTool names the activity item
// of the save that follows a search.
const (
	WebSearchTool     = "web_search"
	ReadKnowledgeTool = "read_knowledge"
	SaveTool          = "save_knowledge"
)

const webSearchSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "What to look up, as a short search query in the language that will find the best pages."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 10, "description": "How many results to read (default 5)."}
  },
  "required": ["query"],
  "additionalProperties": false
}`

const readKnowledgeSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "integer", "description": "The entry id, as the learned-knowledge list in the context shows it ([12] → 12)."}
  },
  "required": ["id"],
  "additionalProperties": false
}`

type searchArgs struct {
	Query      string `json:"query"`
	MaxResults int    `json:"max_results"`
}

type readArgs struct {
	ID *int64 `json:"id"`
}

// Tools returns web_search {query, max_results?} (offered only while a
// search provider is configured) and read_knowledge {id} (offered only
// while an entry exists).
func Tools(s *Service) []tools.Tool {
	return []tools.Tool{
		{
			Name: WebSearchTool,
			Description: "Search the web for current or outside information. The results are summarised into a " +
				"learned-knowledge entry with its sources and kept for later conversations; a query already searched " +
				"recently returns the saved entry instead. Do not search when the local knowledge base or the " +
				"learned-knowledge list in the context already answers the question.",
			Parameters: json.RawMessage(webSearchSchema),
			Label:      "Web search",
			Detail: func(args json.RawMessage) string {
				var a searchArgs
				_ = json.Unmarshal(args, &a)
				return strings.TrimSpace(a.Query)
			},
			Enabled: func() bool { return s.settings().Search.Configured() },
			Run:     s.webSearchTool,
		},
		{
			Name: ReadKnowledgeTool,
			Description: "Read one learned-knowledge entry (its key points, dates and sources) by the id shown in " +
				"the learned-knowledge list of the context. Not needed when the same document is already in the context " +
				"from the local knowledge base.",
			Parameters: json.RawMessage(readKnowledgeSchema),
			Label:      "Read knowledge",
			Detail: func(args json.RawMessage) string {
				var a readArgs
				if json.Unmarshal(args, &a) == nil && a.ID != nil {
					return fmt.Sprintf("#%d", *a.ID)
				}
				return ""
			},
			Enabled: func() bool { return s.Any(context.Background()) },
			Run:     s.readKnowledgeTool,
		},
	}
}

// webSearchTool reuses a recent entry for the same query, or searches,
// summarises the results with the turn's model and saves the entry (shown
// as its own save_knowledge activity item). When the save fails the model
// still gets the results; a search failure is the tool's error.
func (s *Service) webSearchTool(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a searchArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	query := strings.Join(strings.Fields(a.Query), " ")
	if query == "" {
		return tools.Result{}, apperr.New(apperr.WebSearchEmptyQuery, nil)
	}
	if e, ok, err := s.Reusable(ctx, query); err != nil {
		return tools.Result{}, err
	} else if ok {
		if !e.Summarised {
			// Saved from the results themselves: this turn's model may
			// summarise them now.
			if better, err := s.Resummarize(ctx, e.ID, call.Model); err == nil {
				e = better
			} else {
				s.log.Info("knowledge: an unsummarised entry is still not summarised", "id", e.ID, "err", err)
			}
		}
		days := s.settings().ReuseDays
		head := fmt.Sprintf("Reused learned-knowledge entry [%d], saved from a search for the same query on %s "+
			"(within KNOWLEDGE_REUSE_DAYS = %d days); no new search was made.\n\n", e.ID, e.FetchedAt.Format("2006-01-02"), days)
		return tools.Result{Content: head + entryText(e), Sources: eventSources(e.Sources)}, nil
	}
	set := s.settings()
	p, err := websearch.New(set.Search, s.hc)
	if err != nil {
		return tools.Result{}, err
	}
	results, err := p.Search(ctx, query, a.MaxResults)
	if err != nil {
		return tools.Result{}, err
	}
	if len(results) == 0 {
		return tools.Result{Content: fmt.Sprintf("The %s search for %q found nothing.", p.Name(), query)}, nil
	}

	act := event.ToolActivity{ID: call.ID + ":" + SaveTool, Name: SaveTool, Label: "Save knowledge", Detail: query, Status: "running"}
	report := func(a event.ToolActivity) {
		if call.Report != nil {
			call.Report(a)
		}
	}
	report(act)
	e, err := s.learn(ctx, call.Model, query, p.Name(), results)
	if err != nil {
		s.log.Warn("web search results not saved as knowledge", "err", err)
		if apperr.CodeOf(err) == "" {
			err = apperr.New(apperr.ToolFailed, map[string]any{"detail": err.Error()})
		}
		why := apperr.InfoOf(err)
		act.Status, act.Result, act.Error = "error", "not saved", &why
		report(act)
		srcs := make([]Source, len(results))
		for i, r := range results {
			srcs[i] = Source{Title: r.Title, URL: r.URL}
		}
		return tools.Result{Content: "The results could not be saved as learned knowledge (" + err.Error() + ").\n\n" +
			resultsText(results), Sources: eventSources(srcs)}, nil
	}
	act.Status, act.Result = "done", fmt.Sprintf("[%d] %s", e.ID, e.Heading)
	if !e.Summarised {
		act.Result += " (not summarised)"
	}
	report(act)
	head := fmt.Sprintf("Searched %s for %q and saved the summary as learned-knowledge entry [%d]. "+
		"Cite the sources by their numbers.\n\n", p.Name(), query, e.ID)
	if !e.Summarised {
		head = fmt.Sprintf("Searched %s for %q and saved the results, not summarised, as learned-knowledge entry [%d]. "+
			"Cite the sources by their numbers.\n\n", p.Name(), query, e.ID)
	}
	return tools.Result{Content: head + entryText(e), Sources: eventSources(e.Sources)}, nil
}

// learn summarises results with model and saves the entry. When the
// summary cannot be had — the model does not follow the layout twice, or
// the summary request fails — the entry is built from the results
// themselves (fallbackSummary) and saved unsummarised, so what was
// searched is never lost because of the model (issue 22); it is
// summarised later (Resummarize, or when the query is searched again).
func (s *Service) learn(ctx context.Context, model, query, provider string, results []websearch.Result) (Entry, error) {
	sum, err := s.summarize(ctx, model, query, results)
	if err != nil {
		if ctx.Err() != nil {
			return Entry{}, err
		}
		s.log.Info("knowledge: the summary could not be used; saving the results unsummarised", "query", query, "err", err)
		return s.save(ctx, query, model, provider, fallbackSummary(query, results), results, false)
	}
	return s.save(ctx, query, model, provider, sum, results, true)
}

func (s *Service) readKnowledgeTool(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a readArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	if a.ID == nil {
		return tools.Result{}, fmt.Errorf("invalid arguments: id is required")
	}
	e, err := s.Get(ctx, *a.ID)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Content: entryText(e), Sources: eventSources(e.Sources)}, nil
}

// entryText is an entry as the model reads it: heading, query and date,
// body, numbered sources.
func entryText(e Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# [%d] %s\n(query %q, searched %s)\n\n%s\n\n## Sources\n\n", e.ID, e.Heading, e.Query,
		e.FetchedAt.Format("2006-01-02"), strings.TrimSpace(e.Body))
	for i, src := range e.Sources {
		fmt.Fprintf(&b, "[%d] %s — %s\n", i+1, src.Title, src.URL)
	}
	return b.String()
}

// resultsText lists raw results for the model when no entry was saved.
func resultsText(rs []websearch.Result) string {
	var b strings.Builder
	for i, r := range rs {
		fmt.Fprintf(&b, "[%d] %s — %s\n", i+1, r.Title, r.URL)
		if r.Published != "" {
			fmt.Fprintf(&b, "Published: %s\n", r.Published)
		}
		fmt.Fprintf(&b, "%s\n\n", r.Snippet)
	}
	return b.String()
}

func eventSources(ss []Source) []event.Source {
	out := make([]event.Source, len(ss))
	for i, s := range ss {
		out[i] = event.Source{Title: s.Title, URL: s.URL}
	}
	return out
}
