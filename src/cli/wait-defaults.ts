/**
 * How long `tether call` and `tether tools` wait for an editor, in one place for the commands
 * and their --help. Imports only reload-wait.ts, which imports nothing: the entry point loads it
 * at every start.
 */

/** For an editor that is away: starting, restarting, not answering. */
export const DEFAULT_WAIT_MS = 10_000;

/** In all, for one away for a domain reload whose process runs: the fronts' (reload-wait.ts). */
export { DEFAULT_RELOAD_WAIT_MS } from '../link/reload-wait.js';
