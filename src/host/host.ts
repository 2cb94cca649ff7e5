/**
 * The Host: what an app embeds to become a Tether host. It serves the tools, resources and
 * prompts registered on it to every connection its listener authenticates (listener.ts), runs
 * calls through the call engine (call-manager.ts), announces its state, and advertises itself
 * with a host record under $TETHER_HOME/hosts/.
 */
import { join } from 'node:path';
import {
  NOTIFICATION_TABLE,
  PROTOCOL_VERSION,
  TetherError,
  type ByteStream,
  type HelloResult,
  type HostIdentity,
  type HostStateName,
  type HostStatusResult,
  type ToolDescriptor,
} from '../protocol/index.js';
import { removeHostRecord, writeHostRecord, type HostRecord } from '../discovery/host-record.js';
import { PROOF_AUTH } from '../discovery/host-proof.js';
import { UnsafeDirectoryError } from '../discovery/secure-file.js';
import { CallJournal } from './call-journal.js';
import { journalRemedy } from './call-errors.js';
import { CallManager } from './call-manager.js';
import { Catalog, type PromptDefinition, type ResourceDefinition, type ResourceTemplateDefinition } from './catalog.js';
import { FileJournalStore } from './file-journal-store.js';
import { helloResultOf } from './handshake.js';
import type { ConnectionPeer, HostCore } from './host-core.js';
import { hostStatusOf } from './host-status.js';
import { defaultByeMessage, resolveHostOptions, type CloseOptions, type HostOptions, type ResolvedOptions } from './host-options.js';
import { MemoryJournalStore } from './journal-store.js';
import { firstOpeningInProcess } from './journals-opened.js';
import { Listener } from './listener.js';
import { ProofNonces } from './proof-nonces.js';
import { cannotAdd, registerTool, toolProblem, type RegisteredTool, type ToolDefinition } from './tools.js';

export type { CloseOptions, HostOptions } from './host-options.js';

export class Host implements HostCore {
  readonly options: ResolvedOptions;
  readonly identity: HostIdentity;
  readonly recordsDir: string;
  readonly catalog = new Catalog();
  readonly calls: CallManager;
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly listener = new Listener(this);
  private readonly nonces: ProofNonces;
  private boundPort: number | undefined;
  private currentState: HostStateName = 'ready';
  private stateSince = Date.now();
  private started = false;
  /** The journal is loaded: connections may be served. */
  private serving = false;
  private closing: Promise<void> | undefined;
  private readonly startedAt = new Date().toISOString();
  private readonly journalPath: string | undefined;

  constructor(options: HostOptions) {
    this.options = resolveHostOptions(options);
    this.recordsDir = this.options.recordsDir;
    this.nonces = new ProofNonces(options.token);
    this.identity = {
      instanceId: this.options.instanceId,
      kind: options.kind,
      name: options.name,
      version: options.version,
      projectPath: options.projectPath,
      pid: process.pid,
    };
    this.journalPath = options.journalPath;
    const store = options.journalStore ?? (options.journalPath ? new FileJournalStore(options.journalPath) : new MemoryJournalStore());
    this.calls = new CallManager({
      journal: new CallJournal(store, this.options.retentionMs, this.options.readOnlyBudgetBytes),
      tools: () => this.tools,
      heartbeatMs: this.options.heartbeatMs,
      defaultDeadlineMs: this.options.defaultDeadlineMs,
      deadlineGraceMs: this.options.deadlineGraceMs,
      requeueGraceMs: this.options.requeueGraceMs,
      afterRestart: options.afterRestart ?? (options.journalPath !== undefined && firstOpeningInProcess(options.journalPath)),
    });
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  get token(): string {
    return this.options.token;
  }

  get state(): HostStateName {
    return this.currentState;
  }

  get recordPath(): string {
    return join(this.recordsDir, `${this.identity.instanceId}.json`);
  }

  /** The number of authenticated connections. */
  get connectionCount(): number {
    return this.listener.authenticated().length;
  }

  // --- Registration -------------------------------------------------------------------

  tool<Args>(definition: ToolDefinition<Args>): this {
    return this.addTool(registerTool(definition));
  }

  /**
   * Adds a tool. Mistakes an editor's integrator can make are refused here, when the tool is
   * added, not found later by a client (toolProblem): a name taken already (removeTool first,
   * to replace a tool), a name MCP clients would not take or that Tether keeps for its own, no
   * description, an input or output that is not an object's schema, no handler, hints the
   * protocol does not know.
   */
  addTool(tool: RegisteredTool): this {
    const name = tool.descriptor.name;
    const problem = toolProblem(tool) ?? (this.tools.has(name) ? 'a tool of that name is already added (removeTool it first to replace it)' : undefined);
    if (problem !== undefined) throw cannotAdd(name, problem);
    this.tools.set(name, tool);
    this.listener.broadcast(NOTIFICATION_TABLE.toolsChanged, {});
    return this;
  }

  removeTool(name: string): this {
    if (this.tools.delete(name)) this.listener.broadcast(NOTIFICATION_TABLE.toolsChanged, {});
    return this;
  }

  /** Adds a resource; a URI added already is refused, as a tool's name is (removeResource it first to replace it). */
  resource(definition: ResourceDefinition): this {
    this.catalog.addResource(definition);
    this.listener.broadcast(NOTIFICATION_TABLE.resourcesChanged, {});
    return this;
  }

  removeResource(uri: string): this {
    if (this.catalog.resources.delete(uri)) this.listener.broadcast(NOTIFICATION_TABLE.resourcesChanged, {});
    return this;
  }

  /** Adds a resource template; one added already is refused (removeResourceTemplate it first to replace it). */
  resourceTemplate(definition: ResourceTemplateDefinition): this {
    this.catalog.addTemplate(definition);
    this.listener.broadcast(NOTIFICATION_TABLE.resourcesChanged, {});
    return this;
  }

  removeResourceTemplate(uriTemplate: string): this {
    if (this.catalog.templates.delete(uriTemplate)) this.listener.broadcast(NOTIFICATION_TABLE.resourcesChanged, {});
    return this;
  }

  /** Adds a prompt; a name added already is refused, as a tool's is (removePrompt it first to replace it). */
  prompt(definition: PromptDefinition): this {
    this.catalog.addPrompt(definition);
    this.listener.broadcast(NOTIFICATION_TABLE.promptsChanged, {});
    return this;
  }

  removePrompt(name: string): this {
    if (this.catalog.prompts.delete(name)) this.listener.broadcast(NOTIFICATION_TABLE.promptsChanged, {});
    return this;
  }

  /** Tells subscribers of `uri` that it changed. */
  resourceUpdated(uri: string): void {
    this.listener.resourceUpdated(uri);
  }

  toolDescriptors(): ToolDescriptor[] {
    return [...this.tools.values()].map((tool) => tool.descriptor);
  }

  // --- Lifecycle ----------------------------------------------------------------------

  /**
   * Restores the journal, starts listening and writes the host record. `{ listen: false }`:
   * no TCP listener and no record; the host serves only the byte streams handed to accept()
   * (a pipe, an in-memory pair in tests).
   */
  start(): Promise<{ port: number }>;
  start(how: { listen: false }): Promise<{ port: undefined }>;
  async start(how: { listen?: boolean } = {}): Promise<{ port: number | undefined }> {
    if (this.started) throw new TetherError('INTERNAL_ERROR', 'This host was started already: a Host starts once (make a new one to start again).');
    if (this.closing) throw this.closedError('start');
    this.started = true;
    try {
      this.calls.restore();
    } catch (error) {
      const where = this.journalPath ? `its journal ${this.journalPath}` : 'its journal';
      throw new TetherError(
        'INTERNAL_ERROR',
        `The host could not open ${where} (${(error as Error).message}), so it did not start: without it, a call it ran before could run again. ${journalRemedy(error)}, then start it again.`,
        { ...(this.journalPath ? { journalPath: this.journalPath } : {}) },
      );
    }
    this.serving = true;
    if (how.listen === false) return { port: undefined };
    const port = await this.listener.listen(this.options.port);
    if (this.closing) {
      // Closed while it was opening its port: a record written now would outlive the host.
      await this.listener.unlisten();
      throw this.closedError('start');
    }
    this.boundPort = port;
    if (this.options.advertise) {
      try {
        writeHostRecord(this.record(), this.recordsDir);
      } catch (error) {
        // No client could find it: it stops listening rather than hold a port for nobody.
        this.calls.dispose();
        await this.listener.unlisten();
        // A records folder Tether refuses (another user's) keeps its own code: its message says what to do.
        if (error instanceof UnsafeDirectoryError) throw error;
        throw new TetherError('INTERNAL_ERROR', `The host could not write its record in ${this.recordsDir}, so no client could find it, and it stopped listening: ${(error as Error).message}`, {
          recordsDir: this.recordsDir,
        });
      }
    }
    return { port };
  }

  /**
   * Serves a connection over any byte stream (a pipe, an in-memory pair in tests) as one
   * accepted on the port: the same handshake, proof and limits. `endpoint` names the peer in
   * status and eviction messages. The host must have started: its journal decides what a
   * repeated callId gets.
   */
  accept(stream: ByteStream, endpoint = 'stream'): void {
    // A closed host would take the stream and end it at once: the embedder must hear why.
    if (this.closing) throw this.closedError('accept');
    if (!this.serving) {
      throw new TetherError('INTERNAL_ERROR', 'Start the host before handing it a connection: until its journal is loaded, a call it ran before could run again.');
    }
    this.listener.accept(stream, endpoint);
  }

  /** Announces a state to every connection (ready, compiling, reloading, playing, quitting). */
  setState(state: HostStateName, expectedMs?: number): void {
    if (state !== this.currentState) this.stateSince = Date.now();
    this.currentState = state;
    this.listener.broadcast(NOTIFICATION_TABLE.hostState, { state, at: Date.now(), ...(expectedMs === undefined ? {} : { expectedMs }) });
  }

  /**
   * Says `bye` to every connection, closes them and the listener. A reload keeps the host
   * record (the editor process lives on and will listen again); any other reason removes it.
   */
  close(options: CloseOptions = { reason: 'shutdown' }): Promise<void> {
    this.closing ??= this.shutdown(options);
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown({ reason, message, expectedBackMs }: CloseOptions): Promise<void> {
    // A reload keeps its queued calls for the next domain (protocol.md §8.5); any other close is for good.
    if (reason !== 'reload') {
      this.calls.cancelQueued(`the editor ${reason === 'quit' ? 'quit' : 'shut down'} first, so it did not run: call it again once the editor is back.`);
      // Their answers are written as the requests' promises settle: let them go out before the bye
      // and the close, which would otherwise drop them (the client could then only say "unknown").
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.calls.dispose();
    if (this.options.advertise && reason === 'reload' && this.boundPort !== undefined) {
      // Marked before the port closes: a reader refused from now on knows the editor is coming
      // back, where one refused by an unmarked record's port knows it is not (protocol.md §12).
      try {
        writeHostRecord({ ...this.record(), reloadingSince: new Date().toISOString() }, this.recordsDir);
      } catch {
        // Its folder is gone: readers then find no record, and wait for none.
      }
    }
    const text = message ?? defaultByeMessage(reason, expectedBackMs);
    await this.listener.close({ reason, message: text, ...(expectedBackMs === undefined ? {} : { expectedBackMs }) });
    if (this.options.advertise && reason !== 'reload') {
      try {
        removeHostRecord(this.identity.instanceId, this.recordsDir);
      } catch {
        // There was none to remove (it could not be written), or its folder is gone.
      }
    }
  }

  // --- HostCore -----------------------------------------------------------------------

  helloResult(connectionId: string): HelloResult {
    return helloResultOf(this, this.currentState, connectionId);
  }

  status(): HostStatusResult {
    return hostStatusOf({ state: this.currentState, since: this.stateSince }, this.listener.authenticated(), this.calls);
  }

  admitted(connection: ConnectionPeer): void {
    this.listener.admitted(connection);
  }

  forget(connection: ConnectionPeer): void {
    this.listener.forget(connection);
  }

  firstUseOf(nonce: string): boolean {
    return this.nonces.firstUseOf(nonce);
  }

  // --- Internals ----------------------------------------------------------------------

  /** What start() and accept() throw once close() was called: a Host serves one life. */
  private closedError(what: 'start' | 'accept'): TetherError {
    const doing = what === 'start' ? 'start' : 'take a connection';
    return new TetherError(
      'INTERNAL_ERROR',
      `This host was closed, so it cannot ${doing}: a Host serves once, from start() to close(). Create a new Host to serve again (after a domain reload, with the same instanceId and journal).`,
      { instanceId: this.identity.instanceId, closed: true },
    );
  }

  private record(): HostRecord {
    return {
      instanceId: this.identity.instanceId,
      pid: process.pid,
      port: this.boundPort as number,
      host: '127.0.0.1',
      token: this.options.token,
      projectPath: this.identity.projectPath,
      kind: this.identity.kind,
      name: this.identity.name,
      protocolVersion: PROTOCOL_VERSION,
      startedAt: this.startedAt,
      // Clients prove they know the token and never send it (protocol.md §14).
      auth: PROOF_AUTH,
    };
  }
}
