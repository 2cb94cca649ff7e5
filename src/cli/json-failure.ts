/** With --json, scripts read stdout: a command's failure goes there too, as `{"error": {code, message, data}}`. */
import type { TetherError } from '../protocol/index.js';

export function writeJsonFailure(failure: TetherError): void {
  process.stdout.write(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
}
