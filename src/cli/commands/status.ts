/**
 * `tether status [--project DIR] [--json] [--watch]`: the editors running (from their host
 * records), who is attached to each, the calls in flight with their agent and progress, the
 * calls whose outcome is unknown, and tether serve's sessions. Exit 0 when everything could
 * be read, 1 when an editor (or tether serve) did not answer; the rest is printed either way.
 */
import { tetherHome } from '../../discovery/tether-home.js';
import { TetherError } from '../../protocol/index.js';
import { stdoutReaderGone } from '../broken-pipe.js';
import { EXIT_CODES } from '../exit-codes.js';
import { openInBrowser, requestLoginLink } from '../status/dashboard-link.js';
import { gatherStatus, readEverything } from '../status/gather.js';
import { renderStatus } from '../status/view.js';

export interface StatusCommandOptions {
  project?: string;
  json?: boolean;
  /** Redraw every `intervalMs` (1 s) until Ctrl-C. */
  watch?: boolean;
  intervalMs?: number;
  /** Print (and open in the browser) a one-time login link to tether serve's dashboard. */
  open?: boolean;
  /** `--no-browser` (false): with --open, print the link without starting a browser (tests, ssh sessions). */
  browser?: boolean;
}

export async function run(options: StatusCommandOptions): Promise<number> {
  const home = tetherHome();
  if (options.open) return openDashboard(home, options.browser === false);
  if (!options.watch) return show(home, options, false);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => undefined;
  const stop = (): void => {
    stopped = true;
    clearTimeout(timer);
    wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let code: number = EXIT_CODES.ok;
  try {
    // Until Ctrl-C, or until its reader is gone (`| head`: a write met a closed pipe).
    while (!stopped && !stdoutReaderGone()) {
      code = await show(home, options, true);
      // A referenced timer: it is what keeps the process up between redraws (a signal
      // listener does not), and Ctrl-C clears it.
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, options.intervalMs ?? 1_000);
      });
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return code;
}

async function show(home: string, options: StatusCommandOptions, redraw: boolean): Promise<number> {
  const report = await gatherStatus(home, options.project);
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, redraw ? undefined : 2)}\n`);
  else {
    // On a terminal, a redraw replaces the screen; piped, each report follows the last.
    const clear = redraw && process.stdout.isTTY ? '\x1b[H\x1b[2J' : '';
    process.stdout.write(`${clear}${renderStatus(report)}${redraw ? `\n(every ${((options.intervalMs ?? 1_000) / 1000).toString()} s; Ctrl-C to stop)\n` : ''}`);
  }
  return readEverything(report) ? EXIT_CODES.ok : EXIT_CODES.failed;
}

/** `--open`: the dashboard's one-time login link, printed and opened. */
async function openDashboard(home: string, noBrowser: boolean): Promise<number> {
  try {
    const url = await requestLoginLink(home);
    process.stdout.write(`Dashboard (this link works once, for two minutes): ${url}\n`);
    if (!noBrowser) openInBrowser(url);
    return EXIT_CODES.ok;
  } catch (error) {
    process.stderr.write(`${TetherError.from(error).message}\n`);
    return EXIT_CODES.failed;
  }
}
