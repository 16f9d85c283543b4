import * as ToolsService from '../../wailsjs/go/app/ToolsService'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { call } from './errors'
import { TOOLS_CHANGED } from './events'

/** A user's MCP server's configuration (app.ToolsConfig); secret values are "••••••". */
export interface ToolsConfig {
  name: string
  transport: 'stdio' | 'http' | 'sse' | string
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  url: string
  headers: Record<string, string>
  disabled: boolean
  askFirst: boolean
  alwaysAllow: boolean
  allowDiscord: boolean
  timeoutSeconds: number
}

/** One tool of a server (app.ToolsTool): its real name and the name the model sees. */
export interface ToolsTool {
  name: string
  modelName: string
  title: string
  description: string
  enabled: boolean
  readOnly: boolean
  destructive: boolean
}

/** One server's row (app.ToolsServer). */
export interface ToolsServer {
  name: string
  transport: string
  /** starting | ready | failed | not_responding | stopped | disabled */
  state: string
  reason: string
  exitCode: number | null
  stderr: string[]
  logFile: string
  tools: ToolsTool[]
  config: ToolsConfig
}

/** What an import did (app.ToolsImport); applied false: entries were refused and nothing was written. */
export interface ToolsImport {
  applied: boolean
  added: string[]
  replaced: string[]
  refused: { name: string; reason: string }[]
  servers: ToolsServer[]
}

export { TOOLS_CHANGED }

type Raw = Awaited<ReturnType<typeof ToolsService.List>>

function toServers(rs: Raw | null | undefined): ToolsServer[] {
  return (rs ?? []).map((r) => ({
    name: r.name,
    transport: r.transport,
    state: r.state,
    reason: r.reason ?? '',
    exitCode: r.exitCode ?? null,
    stderr: r.stderr ?? [],
    logFile: r.logFile ?? '',
    tools: (r.tools ?? []).map((t) => ({ ...t })),
    config: {
      ...r.config,
      args: r.config?.args ?? [],
      env: r.config?.env ?? {},
      headers: r.config?.headers ?? {},
    } as ToolsConfig,
  }))
}

export async function listTools(): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.List()))
}

export async function importTools(text: string, skipRefused = false): Promise<ToolsImport> {
  const r = await call(() => ToolsService.Import(text, skipRefused))
  return {
    applied: !!r?.applied,
    added: r?.added ?? [],
    replaced: r?.replaced ?? [],
    refused: (r?.refused ?? []).map((x) => ({ name: x.name, reason: x.reason })),
    servers: toServers(r?.servers),
  }
}

export async function saveToolServer(cfg: ToolsConfig, previousName = ''): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.Save(cfg as never, previousName)))
}

export async function setToolServerEnabled(name: string, on: boolean): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.SetEnabled(name, on)))
}

export async function setToolServerSafety(name: string, askFirst: boolean, alwaysAllow: boolean, allowDiscord: boolean): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.SetSafety(name, askFirst, alwaysAllow, allowDiscord)))
}

export async function setToolEnabled(server: string, tool: string, on: boolean): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.SetToolEnabled(server, tool, on)))
}

export async function restartToolServer(name: string): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.Restart(name)))
}

export async function removeToolServer(name: string): Promise<ToolsServer[]> {
  return toServers(await call(() => ToolsService.Remove(name)))
}

/** Answers a tool call waiting in a turn's activity list: once, always (for the server) or deny. */
export async function decideToolCall(callId: string, decision: 'once' | 'always' | 'deny'): Promise<boolean> {
  return !!(await call(() => ToolsService.Decide(callId, decision)))
}

/** Calls fn whenever a server changes; returns the unsubscribe function. */
export function onToolsChanged(fn: () => void): () => void {
  return EventsOn(TOOLS_CHANGED, () => fn())
}
