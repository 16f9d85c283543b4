import * as InteropService from '../../wailsjs/go/app/InteropService'
import { call } from './errors'

/** One ready-to-copy configuration for another tool (interop.ClientConfig). */
export interface ClientConfig {
  /** claude-desktop, vscode, cursor, claude-code, vscode-http or open-webui. */
  client: string
  /** Where the text goes ('' when it is typed somewhere else). */
  file: string
  /** The configuration: JSON, a command line or a form's fields. */
  text: string
}

/** Settings → Use from other tools (app.InteropOverview). */
export interface InteropOverview {
  /** The MCP server over HTTP: running, its URL, and why it is not. */
  http: { running: boolean; url: string; err: string }
  enabled: boolean
  port: number
  /** The HTTP server's token in full ('' until one is made). */
  token: string
  allowWrite: boolean
  shareNotes: boolean
  /** The absolute path of this playchat, which the stdio configurations start. */
  binary: string
  configs: ClientConfig[]
}

/** One test call's outcome (interop.ProbeResult). */
export interface ProbeResult {
  transport: 'stdio' | 'http' | string
  tools: number
  domains: number
  millis: number
}

function toOverview(o: Awaited<ReturnType<typeof InteropService.Overview>>): InteropOverview {
  return {
    http: { running: !!o?.http?.running, url: o?.http?.url ?? '', err: o?.http?.err ?? '' },
    enabled: !!o?.enabled,
    port: o?.port ?? 0,
    token: o?.token ?? '',
    allowWrite: !!o?.allowWrite,
    shareNotes: !!o?.shareNotes,
    binary: o?.binary ?? '',
    configs: (o?.configs ?? []).map((c) => ({ client: c.client, file: c.file, text: c.text })),
  }
}

/** The section's state, from the saved settings. */
export async function interopOverview(): Promise<InteropOverview> {
  return toOverview(await call(() => InteropService.Overview()))
}

/** Saves a new token (sessions of the old one end) and returns the new state. */
export async function rotateToken(): Promise<InteropOverview> {
  return toOverview(await call(() => InteropService.RotateToken()))
}

/**
 * Runs one call as another tool would: `playchat mcp` over stdio, and the
 * HTTP server with its token while it runs. Rejects with the first failure.
 */
export async function testInterop(): Promise<ProbeResult[]> {
  const r = await call(() => InteropService.Test())
  return (r ?? []).map((p) => ({ transport: p.transport, tools: p.tools, domains: p.domains, millis: p.millis }))
}
