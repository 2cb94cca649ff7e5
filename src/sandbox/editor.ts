/**
 * The sandbox editor: a Unity stand-in built on the host SDK. Its network side (this
 * module, on the process's own event loop) hosts the protocol; its main thread is a worker
 * that may block. A domain reload tears down both the host and the main thread and brings
 * them back a few seconds later, with only what is on disk surviving, as in Unity.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Host } from '../host/host.js';
import { registerRemoteTool, type ToolContext } from '../host/tools.js';
import type { HostStateName, PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor, ToolResult } from '../protocol/index.js';
import { PROMPTS, RESOURCES, RESOURCE_TEMPLATES } from './catalog-content.js';
import { CONFORMANCE_PROMPTS, CONFORMANCE_RESOURCES, CONFORMANCE_RESOURCE_TEMPLATES } from './conformance-catalog.js';
import { MainThreadBridge } from './main-thread-bridge.js';
import type { ReloadCause } from './main-thread-messages.js';
import { Project } from './project.js';
import { lockProject } from './project-lock.js';

export const SANDBOX_VERSION = '1.0.0';

export interface SandboxOptions {
  projectRoot: string;
  /** How long build_player blocks the main thread (default 20 s). */
  buildMs?: number;
  compileMs?: number;
  /** How long a domain reload keeps the editor away (default 3 s). */
  reloadMs?: number;
  testMs?: number;
  port?: number;
  heartbeatMs?: number;
  retentionMs?: number;
  frameTimeoutMs?: number;
  maxConnections?: number;
  pingIntervalMs?: number;
  /** How long a connection may take to complete its hello (default 10 s). */
  handshakeTimeoutMs?: number;
  /** How long past its deadline a tool that has not stopped is waited for before its call is given up (protocol.md §8.6). */
  deadlineGraceMs?: number;
  recordsDir?: string;
  conformanceKit?: boolean;
  /** Serve the official MCP conformance suite's fixture tools, resources and prompts. */
  conformanceFixtures?: boolean;
  logger?: Logger;
  /** Called each time the editor (re)starts listening: after start and after every reload. */
  onReady?(info: { port: number; generation: number; instanceId: string }): void;
  /** Called when a domain reload begins (onReady follows once it is back). */
  onReloading?(info: { cause: ReloadCause; reloadMs: number }): void;
}

export class SandboxEditor {
  readonly project: Project;
  readonly instanceId = randomUUID();
  private host: Host | undefined;
  private bridge: MainThreadBridge | undefined;
  private preferredPort: number;
  private reloading: Promise<void> | undefined;
  private stopped = false;
  /** How many times the domain has loaded (1 after start). */
  generation = 0;

  private releaseProject: () => void = () => undefined;

  constructor(private readonly options: SandboxOptions) {
    this.project = new Project(options.projectRoot);
    this.preferredPort = options.port ?? 0;
  }

  get port(): number | undefined {
    return this.host?.port;
  }

  get state(): HostStateName | 'stopped' {
    return this.host?.state ?? 'stopped';
  }

  /** Opens the project (refused with ProjectInUseError while another editor has it) and loads the first domain. */
  async start(): Promise<void> {
    this.releaseProject = lockProject(this.project);
    try {
      await this.boot();
    } catch (error) {
      this.releaseProject();
      throw error;
    }
  }

  /** Waits for a reload in progress to finish. */
  async settled(): Promise<void> {
    while (this.reloading) await this.reloading;
  }

  /** Quits the editor: bye (quit) to every client, record removed, main thread stopped. */
  async quit(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.settled();
    this.host?.setState('quitting');
    await this.host?.close({ reason: 'quit' });
    await this.bridge?.terminate();
    this.releaseProject();
  }

  private async boot(): Promise<void> {
    const log = this.options.logger;
    const bridge = new MainThreadBridge(
      {
        projectRoot: this.project.root,
        editorInstanceId: this.instanceId,
        buildMs: this.options.buildMs ?? 20_000,
        compileMs: this.options.compileMs ?? 1_000,
        testMs: this.options.testMs ?? 400,
        conformanceKit: this.options.conformanceKit ?? false,
        conformanceFixtures: this.options.conformanceFixtures ?? false,
      },
      (state, expectedMs) => this.host?.setState(state, expectedMs),
      (uri) => this.host?.resourceUpdated(uri),
    );
    const { tools, playing } = await bridge.start();
    const host = new Host({
      kind: 'sandbox',
      name: 'Tether Sandbox',
      version: SANDBOX_VERSION,
      projectPath: this.project.root,
      port: this.preferredPort,
      // No token: each domain gets a fresh one (the Host makes it), so a token seen by whatever
      // held the port during a reload is worth nothing afterwards. The instance stays the same.
      instanceId: this.instanceId,
      journalPath: this.project.journalPath,
      // The first domain of this process: what the journal holds queued was left by an editor
      // that stopped, and runs only if a client comes back for it (protocol.md §8.5).
      afterRestart: this.generation === 0,
      ...pick(this.options, ['heartbeatMs', 'retentionMs', 'maxConnections', 'pingIntervalMs', 'handshakeTimeoutMs', 'deadlineGraceMs', 'recordsDir']),
      ...(this.options.frameTimeoutMs ? { limits: { frameTimeoutMs: this.options.frameTimeoutMs } } : {}),
    });
    for (const descriptor of tools) {
      try {
        host.addTool(registerRemoteTool(descriptor, (args, context) => this.runOnMainThread(descriptor.name, args, context, descriptor.execution?.mainThread !== false)));
      } catch (error) {
        // A project tool compiled before its schema was checked: the editor starts without it
        // rather than not at all (compile_scripts now refuses such a schema).
        log?.error({ tool: descriptor.name, err: error }, 'a compiled project tool could not be loaded; compile the scripts again');
      }
    }
    registerCatalog(host, bridge, { resources: RESOURCES, templates: RESOURCE_TEMPLATES, prompts: PROMPTS });
    if (this.options.conformanceFixtures) {
      registerCatalog(host, bridge, { resources: CONFORMANCE_RESOURCES, templates: CONFORMANCE_RESOURCE_TEMPLATES, prompts: CONFORMANCE_PROMPTS });
    }
    this.bridge = bridge;
    this.host = host;
    const { port } = await host.start();
    this.preferredPort = port;
    this.generation++;
    if (playing) host.setState('playing');
    bridge.hostStarted();
    log?.info({ port, generation: this.generation, tools: tools.length }, 'sandbox editor ready');
    this.options.onReady?.({ port, generation: this.generation, instanceId: this.instanceId });
  }

  private async runOnMainThread(tool: string, args: Record<string, unknown>, context: ToolContext, mainThread: boolean): Promise<ToolResult> {
    const bridge = this.bridge as MainThreadBridge;
    // Which agent asked for what, as the Unity host says it in the editor's console.
    this.options.logger?.info({ callId: context.callId, tool, agent: context.agent }, calledLine(context.agent, tool, context.callId));
    const outcome = await bridge.call(context.callId, tool, args, context, mainThread);
    if (outcome.reload) this.beginReload(outcome.reload);
    else if (outcome.state && outcome.state !== this.host?.state) this.host?.setState(outcome.state);
    return outcome.result;
  }

  /**
   * Starts a domain reload. The byes go out now, before the triggering call's result is
   * delivered; the result is journaled as the call finishes and reaches the client when it
   * re-attaches by callId after the reload, as a compile's does in Unity.
   */
  private beginReload(cause: ReloadCause): void {
    if (this.reloading || this.stopped) return;
    const host = this.host as Host;
    const bridge = this.bridge as MainThreadBridge;
    const reloadMs = this.options.reloadMs ?? 3_000;
    host.setState('reloading', reloadMs);
    const closing = host.close({ reason: 'reload', expectedBackMs: reloadMs });
    this.options.logger?.info({ cause, reloadMs }, 'domain reload');
    this.options.onReloading?.({ cause, reloadMs });
    this.reloading = (async () => {
      await closing;
      await bridge.terminate();
      this.host = undefined;
      this.bridge = undefined;
      await delay(reloadMs);
      if (!this.stopped) await this.boot();
    })().finally(() => {
      this.reloading = undefined;
    });
  }
}

/** "[tether] claude-code 2.1 called build_player (callId …)"; an agent that did not say is "an agent". */
export function calledLine(agent: ToolContext['agent'], tool: string, callId: string): string {
  const who = agent ? `${agent.name}${agent.version ? ` ${agent.version}` : ''}` : 'an agent';
  return `[tether] ${who} called ${tool} (callId ${callId})`;
}

/**
 * Registers resources, templates and prompts on the host: the descriptors are static (listed
 * even while the main thread is blocked), reads, prompts and completions go to the main thread.
 */
function registerCatalog(host: Host, bridge: MainThreadBridge, catalog: { resources: ResourceDescriptor[]; templates: ResourceTemplateDescriptor[]; prompts: PromptDescriptor[] }): void {
  const complete = async (ref: Record<string, string>, name: string, value: string): Promise<string[]> => (await bridge.request('complete', { ref, argument: { name, value } })) as string[];
  for (const resource of catalog.resources) host.resource({ ...resource, read: () => bridge.request('read-resource', { uri: resource.uri }) as never });
  for (const template of catalog.templates) {
    const variables = [...template.uriTemplate.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    host.resourceTemplate({
      ...template,
      read: (uri) => bridge.request('read-resource', { uri }) as never,
      complete: Object.fromEntries(variables.map((name) => [name, (value: string) => complete({ type: 'ref/resource', uri: template.uriTemplate }, name, value)])),
    });
  }
  for (const prompt of catalog.prompts) {
    host.prompt({
      ...prompt,
      get: (args) => bridge.request('get-prompt', { name: prompt.name, arguments: args }) as never,
      complete: Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, (value: string) => complete({ type: 'ref/prompt', name: prompt.name }, argument.name, value)])),
    });
  }
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}
