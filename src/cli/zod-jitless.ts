/**
 * Imported first by `tether mcp`, before the MCP SDK builds its zod schemas: zod then parses
 * without compiling a parser for each object schema.
 *
 * zod compiles an object schema's fast parser with `new Function` on its first use, and code
 * made that way is not in the CLI's V8 code cache (bundle-runner.ts), so every start compiles
 * again the parsers of the schemas its first messages meet. Measured on the SDK's server in
 * fresh processes, initialize then tools/list: ~21 ms with them, ~17 ms without; a call then
 * costs ~5–10 µs more of the front's CPU (~3%). `tether mcp` starts once per agent session,
 * so it takes that trade; `tether serve`, started once and long-lived, keeps the compiled
 * parsers.
 */
import { config } from 'zod';

config({ jitless: true });
