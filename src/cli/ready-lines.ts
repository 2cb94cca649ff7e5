/**
 * What `tether sandbox` (and `tether start`, which runs it) says on stdout each time the
 * editor is listening. For a script or a test (stdout not a terminal, or --log-format json):
 * one JSON line per (re)load, `{"event":"ready","port":…,"generation":…,"instanceId":…}`, to
 * wait on. For a person: one readable line when it is ready, and a short one per reload.
 */
import type { SandboxOptions } from '../sandbox/editor.js';
import { outputFormat } from './logger.js';

export interface ReadyLineOptions {
  /** --log-format, when given. */
  format?: string | undefined;
  project: string;
  /** The first readable "ready" line is left out: the caller prints its own (tether start). */
  quietFirst?: boolean;
  stream?: NodeJS.WriteStream;
}

const CAUSES: Record<string, string> = { compile: 'scripts compiled', play: 'play mode' };

/** The editor's onReady and onReloading, writing the lines above. */
export function readyLines(options: ReadyLineOptions): Pick<SandboxOptions, 'onReady' | 'onReloading'> {
  const stream = options.stream ?? process.stdout;
  if (outputFormat(options.format, stream) === 'json') {
    return { onReady: (info) => stream.write(`${JSON.stringify({ event: 'ready', ...info })}\n`) };
  }
  let reload: { cause: string; at: number } | undefined;
  return {
    onReloading: ({ cause }) => {
      reload = { cause, at: Date.now() };
    },
    onReady: ({ port, generation }) => {
      if (generation === 1) {
        if (!options.quietFirst) stream.write(`Sandbox editor ready on 127.0.0.1:${port} for ${options.project}. Ctrl+C quits.\n`);
        return;
      }
      const took = reload ? ` in ${((Date.now() - reload.at) / 1000).toFixed(1)} s` : '';
      const why = reload ? ` (${CAUSES[reload.cause] ?? reload.cause})` : '';
      stream.write(`Sandbox editor reloaded${took}${why}.\n`);
      reload = undefined;
    },
  };
}
