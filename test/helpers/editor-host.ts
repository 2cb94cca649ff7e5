/**
 * A real host as an editor makes one, laid out in a test's folder: its project in `project/`,
 * its records in `hosts/`, its journal in `journal/`. Lives of one editor (a domain reload)
 * share the folder and its journal; a front finds the host by the project.
 */
import { join } from 'node:path';
import { Host, type HostOptions } from '../../src/host/index.js';

export function hostIn(dir: string, options: Partial<HostOptions> = {}): Host {
  return new Host({
    kind: 'test',
    name: 'Test',
    version: '1.0.0',
    projectPath: join(dir, 'project'),
    recordsDir: join(dir, 'hosts'),
    journalPath: join(dir, 'journal', 'calls.jsonl'),
    ...options,
  });
}
