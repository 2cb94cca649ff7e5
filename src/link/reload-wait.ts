/**
 * How long, in all, a front waits for an editor away for a domain reload whose process runs
 * (HostLinkOptions.reloadWaitMs). A script change reloads the editor's code, and a real
 * project's reload often outlasts the wait for an editor that is merely away; an editor whose
 * process ends meanwhile ends the wait at once, so a long one costs nothing then. Imports
 * nothing: the CLI's entry point loads it at every start.
 */
export const DEFAULT_RELOAD_WAIT_MS = 60_000;

/**
 * The reload budget of a front that waits `waitMs` for an editor that is away: the one given,
 * else the default, but none after a wait of 0, which asks not to wait at all, for a reload
 * either.
 */
export function reloadWaitFor(waitMs: number, given?: number): number {
  return given ?? (waitMs === 0 ? 0 : DEFAULT_RELOAD_WAIT_MS);
}
