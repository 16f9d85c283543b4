// Markdown rendering for the window: what components and stores use. The
// modules: markdown.ts (marked + the sanitiser, block-by-block rendering),
// math.ts (the math pre-pass and KaTeX), fences.ts (the one fence reader),
// fence.ts (the streaming view of open fences), highlight.ts (highlight.js),
// mermaidBlocks.ts (mermaid diagrams, drawn after rendering).
export {
  BLOCK_CACHE_CHARS, BLOCK_CACHE_ENTRIES, DATA_IMAGE_MAX, HEADING_ID_PREFIX, MarkdownBlockRenderer, anchorOf,
  clearMarkdownCache, isShownImage, markdownCacheStats, markdownStats, renderMarkdown, renderMarkdownBlocks,
  rendersRawHtml, sanitizeHtml, splitHeadingAnchor, type MarkdownBlock, type RenderOptions,
} from './markdown'
export { katexCacheSize, renderTex } from './math'
export { FenceReader, fenceLines, readFences, type FenceLine, type OpenFence } from './fences'
export { closeOpenFence, openFence, streamingView } from './fence'
export { HIGHLIGHT_LANGUAGES, HIGHLIGHT_MAX_CHARS, highlightCode } from './highlight'
export { drawMermaidBlocks, drawnDiagramCount, mermaidLoader, resetMermaid } from './mermaidBlocks'
