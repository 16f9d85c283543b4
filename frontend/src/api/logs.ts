import * as LogService from '../../wailsjs/go/app/LogService'
import { call } from './errors'
import type { LogDetail, LogPage } from './types'

export async function list(limit: number, offset: number): Promise<LogPage> {
  const page = await call(() => LogService.List(limit, offset))
  return { entries: page?.entries ?? [], total: page?.total ?? 0, usage: page?.usage ?? [] }
}
export const get = (id: number): Promise<LogDetail> => call(() => LogService.Get(id))
export const remove = (id: number): Promise<void> => call(() => LogService.Delete(id))
export const clear = (): Promise<void> => call(() => LogService.Clear())
