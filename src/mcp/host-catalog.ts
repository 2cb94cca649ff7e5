/**
 * The front's mirror of the host's tools, resources and prompts. The last known lists are
 * cached on disk per project, so tools/list answers with the right tools at once, even
 * while the editor is starting or reloading; they are refreshed whenever the link connects
 * or the host says its tools changed.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { METHODS, TetherError, type PromptDescriptor, type ResourceDescriptor, type ResourceTemplateDescriptor, type RpcConnection, type ToolDescriptor } from '../protocol/index.js';
import { WRITABLE_BY_OTHERS, readPrivateFile, writePrivateFile } from '../discovery/secure-file.js';
import { argumentValidator, takesObject, type ArgumentValidator } from '../schema/tool-arguments.js';
import type { HostLink } from '../link/host-link.js';
import { FRONT_TOOL_NAMES } from './front-tools.js';

/** The editor's lists, as MCP clients are shown them. */
export interface HostLists {
  tools: ToolDescriptor[];
  resources: ResourceDescriptor[];
  resourceTemplates: ResourceTemplateDescriptor[];
  prompts: PromptDescriptor[];
}

const EMPTY: HostLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

type Which = 'all' | 'tools' | 'resources' | 'prompts';

export interface HostCatalogEvents {
  toolsChanged: [];
  resourcesChanged: [];
  promptsChanged: [];
}

export class HostCatalog extends EventEmitter<HostCatalogEvents> {
  private lists: HostLists;
  /** One compiled validator per descriptor object (a refresh brings new objects). */
  private readonly validators = new WeakMap<ToolDescriptor, ArgumentValidator>();
  private readonly cachePath: string;
  /** What onHidden was told already. */
  private readonly hiddenTold = new Set<string>();
  private refreshing: Promise<void> | undefined;
  private refreshed = false;
  /** Counts changes of the lists, so a session that slept through some can tell (http-session.ts). */
  revision = 0;

  constructor(
    private readonly link: HostLink,
    cacheDir: string,
    cacheKey: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** Told of a host tool left out of the mirror, and why. */
    private readonly onHidden: (tool: string, why: string) => void = () => undefined,
  ) {
    super();
    this.cachePath = join(cacheDir, `${createHash('sha256').update(cacheKey).digest('hex').slice(0, 16)}.json`);
    this.lists = this.load();
    // Refreshes the link asks for: one that fails (the editor went away again) is retried on
    // the next connect, so it is only logged.
    const inBackground = (which: Which): void => void this.refresh(which).catch((error: unknown) => this.onError(error));
    link.on('connected', () => inBackground('all'));
    link.on('toolsChanged', () => inBackground('tools'));
    link.on('resourcesChanged', () => inBackground('resources'));
    link.on('promptsChanged', () => inBackground('prompts'));
  }

  /** The last known lists (a refresh replaces the object, never changes it). */
  get all(): Readonly<HostLists> {
    return this.lists;
  }

  get tools(): readonly ToolDescriptor[] {
    return this.lists.tools;
  }

  tool(name: string): ToolDescriptor | undefined {
    return this.lists.tools.find((t) => t.name === name);
  }

  /** Validates arguments against the tool's input schema (compiled once per schema). */
  validate(tool: ToolDescriptor, args: Record<string, unknown>): Record<string, unknown> {
    let validator = this.validators.get(tool);
    if (!validator) {
      validator = argumentValidator(tool.name, tool.inputSchema);
      this.validators.set(tool, validator);
    }
    return validator(args);
  }

  /** True once the lists came from the host at least once (not only from the cache). */
  get isFresh(): boolean {
    return this.refreshed;
  }

  /** Whether a refresh is in progress (settled() would wait for it). */
  get isRefreshing(): boolean {
    return this.refreshing !== undefined;
  }

  /** Waits for a refresh in progress, if any (whether it reached the host or not). */
  async settled(): Promise<void> {
    while (this.refreshing) await this.refreshing.catch(() => undefined);
  }

  /**
   * Fetches the lists from the host; emits a change event for each list that changed. Rejects
   * when the host could not be asked (not connected, or it went away meanwhile): the lists are
   * then the last known ones, which is not the same as the host having no such tool.
   */
  refresh(which: Which): Promise<void> {
    const run = (this.refreshing ?? Promise.resolve()).catch(() => undefined).then(() => this.fetch(which));
    const tracked = run.finally(() => {
      if (this.refreshing === tracked) this.refreshing = undefined;
    });
    this.refreshing = tracked;
    return tracked;
  }

  private async fetch(which: Which): Promise<void> {
    const rpc = await this.link.connection(0);
    const next: HostLists = { ...this.lists };
    if (which === 'all' || which === 'tools') next.tools = this.mirrorable(await listOf<ToolDescriptor>(rpc, METHODS.toolsList, 'tools'));
    if (which === 'all' || which === 'resources') {
      next.resources = await listOf<ResourceDescriptor>(rpc, METHODS.resourcesList, 'resources');
      next.resourceTemplates = await listOf<ResourceTemplateDescriptor>(rpc, METHODS.resourceTemplatesList, 'resourceTemplates');
    }
    if (which === 'all' || which === 'prompts') next.prompts = await listOf<PromptDescriptor>(rpc, METHODS.promptsList, 'prompts');
    const previous = this.lists;
    this.lists = next;
    this.refreshed = true;
    if (JSON.stringify(previous) !== JSON.stringify(next)) {
      this.revision++;
      this.save();
    }
    if (JSON.stringify(previous.tools) !== JSON.stringify(next.tools)) this.emit('toolsChanged');
    if (JSON.stringify([previous.resources, previous.resourceTemplates]) !== JSON.stringify([next.resources, next.resourceTemplates])) this.emit('resourcesChanged');
    if (JSON.stringify(previous.prompts) !== JSON.stringify(next.prompts)) this.emit('promptsChanged');
  }

  /**
   * The host's tools that MCP clients may see: names in MCP are unique (a client may reject a
   * list that repeats one), and the fronts' own tools keep theirs. Missing hints get their defaults.
   */
  private mirrorable(tools: ToolDescriptor[]): ToolDescriptor[] {
    const taken = new Set(FRONT_TOOL_NAMES);
    const unique = tools.filter((tool) => {
      const objectInput = takesObject(tool.inputSchema);
      if (objectInput && !taken.has(tool.name)) {
        taken.add(tool.name);
        return true;
      }
      // MCP wants every input schema to be an object's: a client may reject the whole list for one that is not.
      const why = !objectInput
        ? `the editor's tool "${tool.name}" is not offered to MCP clients: its input schema is not of type "object", as MCP requires; fix it in the editor`
        : FRONT_TOOL_NAMES.includes(tool.name)
          ? `the editor's tool "${tool.name}" is not offered to MCP clients: Tether's own tool has that name; rename it in the editor`
          : `the editor lists a second tool named "${tool.name}"; only the first is offered to MCP clients`;
      // Once, not at every refresh of an unchanged list.
      if (!this.hiddenTold.has(why)) this.onHidden(tool.name, why);
      this.hiddenTold.add(why);
      return false;
    });
    // protocol.md §7.2: a host SHOULD send both; a client applies the defaults when one is missing.
    return unique.map((tool) => {
      const execution = tool.execution as Partial<ToolDescriptor['execution']> | undefined; // as sent, maybe partial
      return { ...tool, annotations: tool.annotations ?? {}, execution: { longRunning: false, mainThread: true, ...execution } };
    });
  }

  /**
   * The cached lists, if the file is this user's and no one else may change it: tool
   * descriptions are what a model reads, so a list planted by someone else is not shown (the
   * next refresh writes a private one).
   */
  private load(): HostLists {
    try {
      const read = readPrivateFile(this.cachePath, WRITABLE_BY_OTHERS);
      if (read.status !== 'read') return EMPTY;
      return { ...EMPTY, ...(JSON.parse(read.content.toString('utf8')) as Partial<HostLists>) };
    } catch {
      return EMPTY;
    }
  }

  private save(): void {
    try {
      writePrivateFile(this.cachePath, JSON.stringify(this.lists));
    } catch (error) {
      this.onError(error);
    }
  }
}

/**
 * One of the host's lists. A host that does not offer the feature answers METHOD_NOT_FOUND
 * (protocol.md §13: no such feature), which is an empty list, not a failure that would cost
 * the other lists too: a host of tools alone still has its tools listed.
 */
async function listOf<T>(rpc: RpcConnection, method: string, key: string): Promise<T[]> {
  try {
    return ((await rpc.request<Record<string, T[]>>(method))[key] ?? []) as T[];
  } catch (error) {
    if (TetherError.from(error).code === 'METHOD_NOT_FOUND') return [];
    throw error;
  }
}
