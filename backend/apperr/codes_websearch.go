package apperr

// Codes of web search (backend/websearch) and learned knowledge
// (backend/knowledge), issue 11. They live in their own file so the two
// packages' codes read together; the templates join the table at init.
const (
	// WebSearchNotConfigured: no web search provider is set up (WEB_SEARCH_PROVIDER and its key or URL).
	WebSearchNotConfigured Code = "websearch.notConfigured"
	// WebSearchRateLimited: the provider {provider} answered 429 (too many requests); {retryAfter} is its Retry-After ("" when absent).
	WebSearchRateLimited Code = "websearch.rateLimited"
	// WebSearchServerError: the provider {provider} answered {status} (a server error).
	WebSearchServerError Code = "websearch.serverError"
	// WebSearchRejected: the provider {provider} refused the request with {status} (e.g. a wrong key); {detail} is its message.
	WebSearchRejected Code = "websearch.rejected"
	// WebSearchTimeout: the provider {provider} did not answer within {seconds} seconds.
	WebSearchTimeout Code = "websearch.timeout"
	// WebSearchUnreachable: the provider {provider} at {host} could not be reached; the cause follows.
	WebSearchUnreachable Code = "websearch.unreachable"
	// WebSearchBadResponse: the provider {provider} sent an answer playchat cannot read; the cause follows.
	WebSearchBadResponse Code = "websearch.badResponse"
	// WebSearchEmptyQuery: a search was asked for with an empty query.
	WebSearchEmptyQuery Code = "websearch.emptyQuery"

	// KnowledgeNotFound: learned-knowledge entry {id} does not exist.
	KnowledgeNotFound Code = "knowledge.notFound"
	// KnowledgeBadSummary: the model's summary of the search results did not follow the required layout; {detail} says what was wrong (English).
	KnowledgeBadSummary Code = "knowledge.badSummary"
	// KnowledgeNoResults: learned-knowledge entry {id} kept no search results to summarise again (it is older than that); Refresh searches again.
	KnowledgeNoResults Code = "knowledge.noResults"
)

var webSearchTemplates = map[Code]string{
	WebSearchNotConfigured: "web search is not set up: choose a provider and give its key or URL in Settings",
	WebSearchRateLimited:   "the search provider {provider} says there were too many requests (429); try again later",
	WebSearchServerError:   "the search provider {provider} failed ({status}); try again later",
	WebSearchRejected:      "the search provider {provider} refused the request ({status}): {detail}",
	WebSearchTimeout:       "the search provider {provider} did not answer within {seconds} seconds",
	WebSearchUnreachable:   "cannot reach the search provider {provider} at {host}",
	WebSearchBadResponse:   "the search provider {provider} sent an unreadable answer",
	WebSearchEmptyQuery:    "the search query is empty",

	KnowledgeNotFound:   "learned knowledge entry {id} does not exist",
	KnowledgeBadSummary: "the summary of the search results is unusable: {detail}",
	KnowledgeNoResults:  "learned knowledge entry {id} kept no search results to summarise again: refresh it to search again",
}

func init() {
	for c, t := range webSearchTemplates {
		templates[c] = t
	}
	extraParams[WebSearchRateLimited] = append(extraParams[WebSearchRateLimited], "retryAfter")
}
