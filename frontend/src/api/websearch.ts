import * as WebSearchService from '../../wailsjs/go/app/WebSearchService'
import { call } from './errors'

/** The outcome of a test search (app.WebSearchTest). */
export interface WebSearchTest {
  /** The provider that answered: tavily, brave or searxng. */
  provider: string
  query: string
  /** How many results came back. */
  count: number
  /** The first results' titles (at most 3). */
  titles: string[]
}

/**
 * Runs one search with the saved web search settings ("" searches
 * "playchat"); rejects with an AppError (websearch.notConfigured,
 * websearch.rateLimited, websearch.rejected, …) when it fails.
 */
export async function testSearch(query = ''): Promise<WebSearchTest> {
  const r = await call(() => WebSearchService.TestSearch(query))
  return { provider: r?.provider ?? '', query: r?.query ?? query, count: r?.count ?? 0, titles: r?.titles ?? [] }
}
