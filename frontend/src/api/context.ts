// The context-meter adapter (ChatService.ContextPreview / ContextReport):
// what the next turn's context would hold for a draft, and what a stored
// reply's context held — each layer's tokens of the model's window, what was
// sent and what was left out or cut to fit.
import * as ChatService from '../../wailsjs/go/app/ChatService'
import { chat } from '../../wailsjs/go/models'
import type { layer, store } from '../../wailsjs/go/models'
import { call } from './errors'

/** One request's context report (Go's chat.ContextReport; sizes in tokens). */
export type ContextReport = chat.ContextReport
/** One layer's share of a report (Go's layer.Usage). */
export type LayerUsage = layer.Usage
/** Something left out or cut (Go's layer.Omission). */
export type Omission = layer.Omission
/** Something sent (Go's layer.Item). */
export type ContextItem = layer.Item

/**
 * ContextReport's data: every field (its nested lists as plain objects), so
 * that normalizeReport cannot leave one out.
 */
type ReportData = Omit<ContextReport, 'convertValues' | 'layers' | 'history'> & {
  layers: Omit<LayerUsage, 'convertValues'>[]
  history: Omit<ContextReport['history'], 'convertValues'>
}

/** The report with every list present (Go may send null for an empty slice). */
export function normalizeReport(r: Partial<ContextReport> | null | undefined): ContextReport {
  const out: ReportData = {
    model: r?.model ?? '',
    window: r?.window ?? 0,
    output: r?.output ?? 0,
    input: r?.input ?? 0,
    used: r?.used ?? 0,
    prompt: r?.prompt ?? 0,
    // Absent from reports stored before the tool definitions were counted.
    tools: r?.tools ?? 0,
    // Absent from reports stored before the user's MCP tools (issue 24).
    toolsSent: r?.toolsSent ?? 0,
    toolsLeftOut: r?.toolsLeftOut ?? [],
    // Absent from reports stored before chats had their own system prompt.
    system: r?.system ?? 0,
    systemFull: r?.systemFull ?? 0,
    systemCut: r?.systemCut ?? false,
    message: r?.message ?? 0,
    // The files and images sent with the message (issue 25); absent from
    // reports stored before attachments.
    attachments: r?.attachments ?? 0,
    layers: (r?.layers ?? []).map((u) => ({
      layer: u?.layer ?? '',
      tokens: u?.tokens ?? 0,
      fullTokens: u?.fullTokens ?? 0,
      included: u?.included ?? [],
      leftOut: u?.leftOut ?? [],
      includedMore: u?.includedMore ?? 0,
      leftOutMore: u?.leftOutMore ?? 0,
    })),
    history: { tokens: r?.history?.tokens ?? 0, sent: r?.history?.sent ?? 0, leftOut: r?.history?.leftOut ?? 0 },
    preview: !!r?.preview,
    tooLong: !!r?.tooLong,
    attachmentsTooLong: !!r?.attachmentsTooLong,
  }
  return out as ContextReport
}

/**
 * What the next turn would send for `text` in session `sessionId` ("" = a
 * new chat) with `model` ("" = the session's or the default), with the files
 * waiting in the message box (`attachmentIds`, StagedAttachment.id) counted
 * as the attachments part. Calls no model and writes nothing.
 */
export async function preview(
  sessionId: string,
  text: string,
  model: string,
  chatSettings?: store.ChatSettings,
  attachmentIds: string[] = [],
): Promise<ContextReport> {
  const req = chat.PreviewRequest.createFrom({ sessionId, text, model, chatSettings })
  return normalizeReport(await call(() => ChatService.ContextPreview(req, attachmentIds)))
}

/** The report stored with reply `messageId`, or null when none was stored. */
export async function stored(messageId: number): Promise<ContextReport | null> {
  const r = await call(() => ChatService.ContextReport(messageId))
  return r?.found ? normalizeReport(r.report) : null
}
