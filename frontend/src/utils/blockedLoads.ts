// A load the window's Content-Security-Policy (csp.ts) refused means content
// got past the sanitisers with a way to fetch something (issue 21): nothing
// left the machine, but it is a bug to fix. Each is reported once on the
// app's error output — the directive and the address's scheme only, never
// the address (it may carry the text a payload meant to leak) — at most
// MAX_REPORTS per page load. The end-to-end tests fail on such a line.

/** How many refused loads one page load reports at most. */
export const MAX_REPORTS = 20

/** The scheme of a refused address as the event gives it ("inline", "eval" and "" stay as they are). */
export function blockedScheme(blockedURI: string): string {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(blockedURI)
  return m ? m[1].toLowerCase() + ':' : blockedURI.slice(0, 16)
}

/** The line reported for one refused load. */
export function blockedLoadLine(directive: string, blockedURI: string): string {
  return `playchat: the window refused a load (${directive}, ${blockedScheme(blockedURI) || 'no address'}): content got past the sanitiser`
}

/**
 * Reports the loads the policy refuses on target (the document) through
 * report (api/system.ts logError). Returns the function that stops it.
 */
export function reportBlockedLoads(target: Document, report: (line: string) => void): () => void {
  let reported = 0
  const onViolation = (e: Event) => {
    if (reported >= MAX_REPORTS) return
    reported++
    const v = e as SecurityPolicyViolationEvent
    report(blockedLoadLine(v.effectiveDirective || v.violatedDirective || '?', v.blockedURI ?? ''))
  }
  target.addEventListener('securitypolicyviolation', onViolation)
  return () => target.removeEventListener('securitypolicyviolation', onViolation)
}
