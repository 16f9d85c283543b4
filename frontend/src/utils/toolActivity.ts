// Pure helpers of the tool activity list shown above an assistant reply.
import type { ToolActivity } from '@/api/types'

/** Tool names the UI has its own label for (tools.names.<name> in the locales). */
export const KNOWN_TOOLS = [
  'read_note', 'write_note', 'web_search', 'read_knowledge', 'save_knowledge',
  'create_reminder', 'list_reminders', 'cancel_reminder',
] as const

export type ToolState = 'running' | 'done' | 'error'

/** The state to show; anything unexpected counts as done. */
export function toolState(a: Pick<ToolActivity, 'status'>): ToolState {
  return a.status === 'running' || a.status === 'error' ? a.status : 'done'
}

/** The i18n key of a tool's label, or null when the backend's label must do. */
export function toolLabelKey(name: string | undefined): string | null {
  return name && (KNOWN_TOOLS as readonly string[]).includes(name) ? 'tools.names.' + name : null
}

/** The error code of a call whose arguments were cut off (not run). */
export const TRUNCATED_CODE = 'tool.argumentsTruncated'
