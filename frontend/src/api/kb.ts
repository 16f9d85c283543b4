// The knowledge-base adapter (KBService): the read-only browser's
// index status, folder tree, documents and search.
import * as KBService from '../../wailsjs/go/app/KBService'
import { call } from './errors'
import type { KBDoc, KBHit, KBNode, KBStatus } from './types'

function node(n: Partial<KBNode> | null | undefined): KBNode {
  return {
    name: n?.name ?? '',
    path: n?.path ?? '',
    dir: !!n?.dir,
    title: n?.title ?? '',
    size: n?.size ?? 0,
    error: n?.error ?? '',
    count: n?.count ?? 0,
    children: (n?.children ?? []).map(node),
  }
}

/**
 * When the index last changed, or "" when never: Go sends its zero time
 * ("0001-01-01T00:00:00Z") for an index that never changed.
 */
export function indexedAt(t: string | null | undefined): string {
  return !t || t.startsWith('0001-01-01') ? '' : t
}

/** The index's counts, failures, progress, watcher and embedding state. */
export async function status(): Promise<KBStatus> {
  const s = await call(() => KBService.Status())
  return {
    root: s?.root ?? '',
    indexed: s?.indexed ?? 0,
    pending: s?.pending ?? 0,
    failed: s?.failed ?? [],
    lastIndexedAt: indexedAt(s?.lastIndexedAt),
    indexing: !!s?.indexing,
    progress: { done: s?.progress?.done ?? 0, total: s?.progress?.total ?? 0 },
    watching: !!s?.watching,
    watchError: s?.watchError ?? '',
    embeddingModel: s?.embeddingModel ?? '',
    embedded: s?.embedded ?? 0,
    embeddingPending: s?.embeddingPending ?? 0,
    embeddingError: s?.embeddingError ?? '',
  }
}

/** The folder at `dir` ("" = the root) with its direct entries, folders first. */
export const tree = async (dir: string): Promise<KBNode> =>
  node(await call(() => KBService.Tree(dir)))

/** One document's Markdown; paths leaving the knowledge base are refused. */
export const read = (path: string): Promise<KBDoc> => call(() => KBService.Read(path))

/** The chat's retrieval (BM25, fused with embeddings when configured); limit 1–50. */
export const search = (query: string, limit: number): Promise<KBHit[]> =>
  call(async () => (await KBService.Search(query, limit)) ?? [])

/** Rebuilds the whole index in the background; poll status() for progress. */
/** Moves a document into the knowledge base's trash folder (and out of the index); returns its path there. */
export const deleteDocument = (path: string): Promise<string> => call(() => KBService.Delete(path))

export const reindex = (): Promise<void> => call(() => KBService.Reindex())

/** Shows the knowledge-base folder in the system's file manager. */
export const openFolder = (): Promise<void> => call(() => KBService.OpenFolder())
