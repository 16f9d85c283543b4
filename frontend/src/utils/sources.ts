// Helpers of the source chips under a reply.

/** Whether url is an absolute http or https address (the only kind a chip opens). */
export function isWebURL(url: string): boolean {
  try {
    const u = new URL(url)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== ''
  } catch {
    return false
  }
}

/** The host of url without "www.", or "" when url is not an address. */
export function sourceHost(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '')
  } catch {
    return ''
  }
}
