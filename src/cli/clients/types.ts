/**
 * What Tether knows about an MCP client (Claude Code, Cursor, VS Code…): where it keeps its
 * configuration on each OS and in each scope, how it wants a server entry written, how it
 * names an environment variable inside that entry, and which environment it gives the stdio
 * servers it starts. One module per client in this folder; registry.ts lists them.
 */
import type path from 'node:path';

/** Where a configuration applies: one project, every project of this user, or (Claude Code) this user in one project. */
export type Scope = 'project' | 'user' | 'local';

/** The machine a path is computed for; tests pass path.win32 or path.posix and a made-up home. */
export interface ClientContext {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  paths: path.PlatformPath;
}

/** The environment variable an HTTP configuration reads serve's bearer token from. */
export const TOKEN_VARIABLE = 'TETHER_TOKEN';

/** What a client is to start or reach: Tether's stdio front, or `tether serve` with its token. */
export type ServerSpec = { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> } | { transport: 'http'; url: string; headers: Record<string, string> };

/** A server entry read back from a client's file, with the client's variables expanded where the client would. */
export type ConfiguredServer =
  { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> } | { transport: 'http'; url: string; headers: Record<string, string>; tokenSource: TokenSource };

/** Where a client takes the bearer token from, so `tether doctor` can say whether it will have it. */
export type TokenSource = { kind: 'variable'; name: string; value: string | undefined } | { kind: 'prompt'; note: string } | { kind: 'none' };

export interface McpClient {
  /** The name `tether setup` and `tether doctor --client` take. */
  readonly id: string;
  readonly name: string;
  /** The pages its configuration format and locations come from. */
  readonly docs: readonly string[];
  /** Scopes it has, the default first. */
  readonly scopes: readonly Scope[];
  readonly format: 'json' | 'toml';
  /** Why an HTTP entry cannot be written for it, when it cannot. */
  readonly noHttp?: string;
  configPath(scope: Scope, project: string, ctx: ClientContext): string;
  /** Keys leading to the object that maps server names to entries. */
  serversPath(scope: Scope, project: string): string[];
  /** The entry for `spec`, in the client's own shape (never the token itself). */
  entry(spec: ServerSpec): Record<string, unknown>;
  /** Document-level additions an entry needs (VS Code's `inputs`), made on a parsed copy. */
  addExtras?(document: Record<string, unknown>, spec: ServerSpec): void;
  /** Reads an entry back as the client would understand it, in the environment it would have. */
  read(entry: unknown, env: NodeJS.ProcessEnv): ConfiguredServer | { error: string };
  /** The environment it gives a stdio server: its own, or a few variables of it, plus the entry's `env`. */
  serverEnvironment(entryEnv: Record<string, string>, own: NodeJS.ProcessEnv): Record<string, string>;
  /** Folders and commands whose presence says it is installed here. */
  installedMarks(ctx: ClientContext): { dirs: string[]; commands: string[] };
  /** How to see the server from the client once it is written. */
  readonly howToCheck: string;
  /** What to tell a person about the HTTP token for this client. */
  tokenAdvice(tokenFile: string): string[];
}
