import { ExitError } from '../exit-error.js';
export async function run(_options: { project: string; json?: boolean; only?: string }): Promise<number> {
  throw new ExitError('the conformance suite is being written');
}
