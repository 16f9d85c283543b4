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
  /** The OpenAI-compatible API: running, its base URL, the local-network mode, and why it is not. */
  api: { running: boolean; url: string; lan: boolean; err: string }
  apiEnabled: boolean
  /** The API's token in full ('' until one is made). */
  apiToken: string
}

/** One MCP test call's outcome (interop.ProbeResult). */
export interface ProbeResult {
  transport: 'stdio' | 'http' | string
  tools: number
  domains: number
  millis: number
}

/** What Test saw (app.InteropTest): the MCP transports, and the API's model list (-1: not running). */
export interface InteropTest {
  mcp: ProbeResult[]
  apiModels: number
  apiMillis: number
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
    api: { running: !!o?.api?.running, url: o?.api?.url ?? '', lan: !!o?.api?.lan, err: o?.api?.err ?? '' },
    apiEnabled: !!o?.apiEnabled,
    apiToken: o?.apiToken ?? '',
  }
}

/** The section's state, from the saved settings. */
export async function interopOverview(): Promise<InteropOverview> {
  return toOverview(await call(() => InteropService.Overview()))
}

/** Saves a new MCP token (sessions of the old one end) and returns the new state. */
export async function rotateMCPToken(): Promise<InteropOverview> {
  return toOverview(await call(() => InteropService.RotateMCPToken()))
}

/** Saves a new API token (the old one is refused from now on) and returns the new state. */
export async function rotateAPIToken(): Promise<InteropOverview> {
  return toOverview(await call(() => InteropService.RotateAPIToken()))
}

/**
 * Runs one call as another tool would: `playchat mcp` over stdio, the MCP
 * server over HTTP and the API's model list (with their tokens) while they
 * run. Rejects with the first failure.
 */
export async function testInterop(): Promise<InteropTest> {
  const r = await call(() => InteropService.Test())
  return {
    mcp: (r?.mcp ?? []).map((p) => ({ transport: p.transport, tools: p.tools, domains: p.domains, millis: p.millis })),
    apiModels: r?.apiModels ?? -1,
    apiMillis: r?.apiMillis ?? 0,
  }
}
