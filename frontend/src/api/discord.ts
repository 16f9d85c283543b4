import * as DiscordService from '../../wailsjs/go/app/DiscordService'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { DISCORD_STATUS, SESSION_CHANGED } from './events'
import { call } from './errors'

/** The Discord bot's connection state (app.DiscordStatus). */
export type DiscordState = 'off' | 'connecting' | 'connected' | 'retrying'

export interface DiscordStatus {
  state: DiscordState
  /** The bot's name while connected. */
  user: string
  /** Why it is off or retrying, in plain English (shown when reasonCode is unknown). */
  reason: string
  /** An error code (discord.badToken, …) worded by the window; '' when none. */
  reasonCode: string
  /** When the state began (RFC 3339), '' when unknown. */
  since: string
}

export { DISCORD_STATUS, SESSION_CHANGED }

const STATES: DiscordState[] = ['off', 'connecting', 'connected', 'retrying']

/** Reads a DiscordStatus payload; an unknown shape reads as off. */
export function toDiscordStatus(v: unknown): DiscordStatus {
  const o = v && typeof v === 'object' ? (v as Record<string, unknown>) : {}
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '')
  const state = STATES.includes(o.state as DiscordState) ? (o.state as DiscordState) : 'off'
  return { state, user: str('user'), reason: str('reason'), reasonCode: str('reasonCode'), since: str('since') }
}

/** The bot's state now. */
export async function discordStatus(): Promise<DiscordStatus> {
  return toDiscordStatus(await call(() => DiscordService.Status()))
}

/** Calls `handler` on every change of the bot's state; returns the unsubscribe function. */
export function onDiscordStatus(handler: (s: DiscordStatus) => void): () => void {
  const off = EventsOn(DISCORD_STATUS, (v: unknown) => handler(toDiscordStatus(v)))
  return () => typeof off === 'function' && off()
}


/** Calls `handler` with the session id of every session changed outside the window; returns the unsubscribe function. */
export function onSessionChanged(handler: (sessionId: string) => void): () => void {
  const off = EventsOn(SESSION_CHANGED, (v: unknown) => {
    if (typeof v === 'string' && v) handler(v)
  })
  return () => typeof off === 'function' && off()
}

/** A Discord channel as Settings → Discord lists it (Go's discord.Channel). */
export interface DiscordChannel {
  id: string
  /** The channel's name; '' for a DM or a channel the bot has not answered in yet. */
  name: string
  guildId: string
  /** The channel's chat; '' when it has none yet. */
  sessionId: string
  /** The channel's assistant; 0 for none. */
  assistantId: number
}

const channels = (list: DiscordChannel[] | null | undefined): DiscordChannel[] =>
  (list ?? []).map((c) => ({
    id: c.id ?? '', name: c.name ?? '', guildId: c.guildId ?? '', sessionId: c.sessionId ?? '', assistantId: c.assistantId ?? 0,
  }))

/** The channels the bot talks in and those given an assistant. */
export async function discordChannels(): Promise<DiscordChannel[]> {
  return channels(await call(() => DiscordService.Channels()))
}

/** Gives channel `channelId` assistant `assistantId` (0: none); returns the channels. */
export async function setChannelAssistant(channelId: string, assistantId: number): Promise<DiscordChannel[]> {
  return channels(await call(() => DiscordService.SetChannelAssistant(channelId, assistantId)))
}
