import * as MemoryService from '../../wailsjs/go/app/MemoryService'
import { call } from './errors'
import type { Memory } from './types'

export const list = (sessionId: string): Promise<Memory[]> =>
  call(async () => (await MemoryService.List(sessionId)) ?? [])
export const remove = (id: number): Promise<void> => call(() => MemoryService.Delete(id))
