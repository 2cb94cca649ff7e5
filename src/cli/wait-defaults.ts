/**
 * How long `tether call` and `tether tools` wait for an editor, in one place for the commands
 * and their --help. Imports nothing: the entry point loads it at every start.
 */

/** For an editor that is away: starting, restarting, not answering. */
export const DEFAULT_WAIT_MS = 10_000;

/**
 * In all, for one away for a domain reload whose process runs. A script change reloads the
 * editor's code, and a real project's reload often outlasts the wait above; an editor whose
 * process ends meanwhile ends the wait at once, so a long one costs nothing then.
 */
export const DEFAULT_RELOAD_WAIT_MS = 60_000;
