/**
 * What most clients share: entries of the `mcpServers` shape Claude Desktop introduced
 * (`command`, `args`, `env`; a URL field and `headers` for HTTP), each client's way of naming
 * an environment variable inside a value, the environment a client gives its stdio servers,
 * and the per-OS folders configurations live under.
 */
import { TOKEN_VARIABLE, type ClientContext, type ConfiguredServer, type ServerSpec, type TokenSource } from './types.js';

/** A value with a client's variable references replaced, and the variables it named. */
export interface Expansion {
  value: string;
  variables: string[];
}

export type Expander = (value: string, env: NodeJS.ProcessEnv) => Expansion;

function expandWith(pattern: RegExp, pick: (match: RegExpExecArray) => { name: string; fallback?: string }): Expander {
  return (value, env) => {
    const variables: string[] = [];
    const out = value.replace(new RegExp(pattern.source, 'g'), (...groups) => {
      const match = groups.slice(0, -2) as unknown as RegExpExecArray;
      const { name, fallback } = pick(match);
      variables.push(name);
      return env[name] ?? fallback ?? '';
    });
    return { value: out, variables };
  };
}

/** `${VAR}` and `${VAR:-default}` (Claude Code). */
export const dollarBrace: Expander = expandWith(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/, (m) => ({ name: m[1]!, ...(m[2] === undefined ? {} : { fallback: m[2] }) }));

/** `${env:VAR}` (Cursor, Windsurf). */
export const envColon: Expander = expandWith(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/, (m) => ({ name: m[1]! }));

/** `$VAR` and `${VAR}` (Gemini CLI). */
export const shellStyle: Expander = expandWith(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/, (m) => ({ name: (m[1] ?? m[2])! }));

/** The `Authorization` value that makes a client read the token from TETHER_TOKEN, in its syntax. */
export function bearerFrom(reference: string): Record<string, string> {
  return { Authorization: `Bearer ${reference}` };
}

/** `{command, args, env}` for a stdio spec; `type` for the clients that want it. */
export function stdioEntry(spec: Extract<ServerSpec, { transport: 'stdio' }>, type?: 'stdio'): Record<string, unknown> {
  return {
    ...(type ? { type } : {}),
    command: spec.command,
    args: spec.args,
    ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * Reads an `mcpServers`-style entry: stdio when it has `command`, HTTP when it has one of
 * `urlFields`. `expand` is the client's own variable syntax, applied where the client applies it.
 */
export function readMcpServersEntry(entry: unknown, env: NodeJS.ProcessEnv, urlFields: readonly string[], expand?: Expander): ConfiguredServer | { error: string } {
  if (!isRecord(entry)) return { error: 'the entry is not an object' };
  const apply = (value: string): Expansion => (expand ? expand(value, env) : { value, variables: [] });
  if (typeof entry.command === 'string') {
    const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
    const entryEnv = Object.fromEntries(Object.entries(stringRecord(entry.env)).map(([k, v]) => [k, apply(v).value]));
    return { transport: 'stdio', command: apply(entry.command).value, args: args.map((a) => apply(a).value), env: entryEnv };
  }
  const field = urlFields.find((f) => typeof entry[f] === 'string');
  if (!field) return { error: `the entry has neither "command" nor ${urlFields.map((f) => `"${f}"`).join(' or ')}` };
  const headers: Record<string, string> = {};
  let tokenSource: TokenSource = { kind: 'none' };
  for (const [name, raw] of Object.entries(stringRecord(entry.headers))) {
    const expanded = apply(raw);
    headers[name] = expanded.value;
    if (name.toLowerCase() === 'authorization') {
      const variable = expanded.variables[0];
      tokenSource = variable ? { kind: 'variable', name: variable, value: env[variable] } : { kind: 'none' };
    }
  }
  return { transport: 'http', url: apply(entry[field] as string).value, headers, tokenSource };
}

/** The client gives its servers its own environment (what a terminal-started CLI or an editor does). */
export function inheritedEnvironment(entryEnv: Record<string, string>, own: NodeJS.ProcessEnv): Record<string, string> {
  return { ...definedOnly(own), ...entryEnv };
}

/** The client gives its servers only these variables of its own, plus the entry's. */
export function environmentOf(names: readonly string[]): (entryEnv: Record<string, string>, own: NodeJS.ProcessEnv) => Record<string, string> {
  return (entryEnv, own) => {
    const kept = Object.fromEntries(names.filter((n) => own[n] !== undefined).map((n) => [n, own[n]!]));
    return { ...kept, ...entryEnv };
  };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Windows' roaming application data folder (%APPDATA%). */
export function appData(ctx: ClientContext): string {
  return ctx.env.APPDATA ?? ctx.paths.join(ctx.home, 'AppData', 'Roaming');
}

/** The XDG configuration folder ($XDG_CONFIG_HOME, else ~/.config). */
export function xdgConfig(ctx: ClientContext): string {
  return ctx.env.XDG_CONFIG_HOME ?? ctx.paths.join(ctx.home, '.config');
}

/** macOS's per-user application support folder. */
export function macApplicationSupport(ctx: ClientContext): string {
  return ctx.paths.join(ctx.home, 'Library', 'Application Support');
}

/** The usual advice for a client that reads the token from an environment variable it inherits. */
export function variableAdvice(client: string, tokenFile: string): string[] {
  return [
    `${client} reads the token from the environment variable ${TOKEN_VARIABLE}; set it where ${client} starts, e.g.`,
    `  export ${TOKEN_VARIABLE}="$(cat '${tokenFile}')"                   (bash, zsh: in your shell profile)`,
    `  $env:${TOKEN_VARIABLE} = (Get-Content '${tokenFile}')              (PowerShell)`,
  ];
}
