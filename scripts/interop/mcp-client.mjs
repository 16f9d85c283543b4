// Drives `playchat mcp` over stdio with the official TypeScript MCP SDK, so a
// client of another ecosystem than the Go SDK is proven too (issue 23).
// Usage: node mcp-client.mjs /path/to/playchat
// The server starts with a bare environment (HOME only), as MCP clients such
// as Claude Desktop start it. Exits non-zero on any failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const bin = process.argv[2]
if (!bin) {
  console.error('usage: node mcp-client.mjs /path/to/playchat')
  process.exit(2)
}
const query = process.env.MCP_QUERY || 'playchat'

function fail(msg) {
  console.error('e2e-mcp: FAIL:', msg)
  process.exit(1)
}

const transport = new StdioClientTransport({
  command: bin,
  args: ['mcp'],
  env: { HOME: process.env.MCP_HOME || process.env.HOME },
  stderr: 'inherit',
})
const client = new Client({ name: 'ts-sdk-check', version: '1.0.0' })
const timer = setTimeout(() => fail('timed out after 60 s'), 60000)
try {
  await client.connect(transport)
  const info = client.getServerVersion()
  if (info?.name !== 'playchat') fail(`server name ${JSON.stringify(info)}`)
  const { tools } = await client.listTools()
  const names = tools.map((t) => t.name).sort()
  for (const want of ['list_kb_domains', 'query_kb', 'read_document']) {
    if (!names.includes(want)) fail(`tool ${want} missing from ${names.join(', ')}`)
  }
  if (names.includes('append_learning')) fail('append_learning offered without --allow-write')
  const res = await client.callTool({ name: 'query_kb', arguments: { query, limit: 3 } })
  if (res.isError) fail(`query_kb: ${JSON.stringify(res.content)}`)
  const hits = res.structuredContent?.hits
  if (!Array.isArray(hits) || hits.length === 0) fail(`query_kb found nothing for ${query}: ${JSON.stringify(res)}`)
  const doc = await client.callTool({ name: 'read_document', arguments: { domain: hits[0].domain, path: hits[0].path } })
  if (doc.isError || !doc.structuredContent?.content) fail(`read_document on the first hit: ${JSON.stringify(doc.content)}`)
  const bad = await client.callTool({ name: 'read_document', arguments: { domain: 'x', path: '../../etc/passwd' } })
  if (!bad.isError || !String(bad.content?.[0]?.text).startsWith('[interop.')) fail(`a path attack was not refused: ${JSON.stringify(bad)}`)
  console.log(`e2e-mcp: ok: ${names.length} tools; query_kb "${query}" → ${hits[0].domain}/${hits[0].path}`)
  await client.close()
  clearTimeout(timer)
  process.exit(0)
} catch (e) {
  fail(e?.stack || String(e))
}
