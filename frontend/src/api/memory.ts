import * as MemoryService from '../../wailsjs/go/app/MemoryService'
import { call } from './errors'
import type { Memory, MemoryStatus } from './types'

export const list = (sessionId: string): Promise<Memory[]> =>
  call(async () => (await MemoryService.List(sessionId)) ?? [])
export const remove = (id: number): Promise<void> => call(() => MemoryService.Delete(id))
export const status = (sessionId: string): Promise<MemoryStatus> =>
  call(() => MemoryService.Status(sessionId))
