/**
 * One editor as the dashboard follows it: a link of its own (named `tether-dashboard`, so the
 * editor lists it apart from agents), the editor's state over time as the link hears it (each
 * state change the host announces, each reload it says bye for, each time it is away), and,
 * a few times a second while it is reachable and a page looks, its `host/status`: who is attached, what runs with what
 * progress, which outcomes are unknown.
 */
import type { HostStatusResult } from '../../protocol/index.js';
import { HostStatusResult as HostStatusSchema, METHODS } from '../../protocol/index.js';
import { HostLink, type LinkState } from '../../link/host-link.js';

export const DASHBOARD_CLIENT_NAME = 'tether-dashboard';

/** How much of an editor's history the page can show. */
const MAX_TIMELINE = 200;
const MAX_RELOADS = 50;

export interface StateSpan {
  state: string;
  /** Epoch ms it began. */
  at: number;
}

export interface EditorView {
  project: string;
  kind?: string;
  name?: string;
  version?: string;
  /** The editor's state now: its own word (ready, compiling, playing, …), or reloading, away, connecting. */
  state: string;
  timeline: StateSpan[];
  /** How long each reload seen took (ms), the latest last. */
  reloads: number[];
  status?: HostStatusResult;
  error?: string;
}

export interface EditorWatchOptions {
  project: string;
  recordsDir: string;
  pollMs: number;
  /** Called whenever something the page shows changed. */
  onChange: () => void;
}

/** The page's word for where the link stands, when the editor itself is not saying. */
function linkWord(state: LinkState): string | undefined {
  switch (state) {
    case 'reloading':
      return 'reloading';
    case 'lost':
    case 'closed':
      return 'away';
    case 'connecting':
    case 'idle':
      return 'connecting';
    default:
      return undefined;
  }
}

export class EditorWatch {
  private readonly link: HostLink;
  private readonly timeline: StateSpan[] = [];
  private readonly reloads: number[] = [];
  private status: HostStatusResult | undefined;
  /** The last status as JSON, to tell the page only of a change (most polls bring none). */
  private statusText: string | undefined;
  private error: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** When the reload under way began, if one is. */
  private reloadBegan: number | undefined;

  constructor(private readonly options: EditorWatchOptions) {
    this.link = new HostLink({ project: options.project, recordsDir: options.recordsDir, clientName: DASHBOARD_CLIENT_NAME });
    this.link.on('state', (state, detail) => {
      const word = linkWord(state);
      if (word) this.enter(word);
      if (state !== 'authenticated') {
        this.status = undefined;
        this.statusText = undefined;
      }
      this.error = detail.error?.message;
      options.onChange();
    });
    this.link.on('connected', (hello) => {
      this.enter(hello.state);
      void this.poll();
    });
    this.link.on('hostState', (notice) => {
      this.enter(notice.state);
      options.onChange();
    });
  }

  start(): this {
    this.link.start();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
    return this;
  }

  close(): void {
    clearInterval(this.timer);
    this.link.close();
  }

  /** Asks the editor to stop a call (any authenticated connection may, protocol.md §7.6). */
  async cancel(callId: string, reason: string): Promise<unknown> {
    return this.link.request(METHODS.callCancel, { callId, reason }, 5_000);
  }

  view(): EditorView {
    const hello = this.link.hello;
    return {
      project: this.options.project,
      ...(hello ? { kind: hello.host.kind, name: hello.host.name, ...(hello.host.version ? { version: hello.host.version } : {}) } : {}),
      state: this.timeline.at(-1)?.state ?? 'connecting',
      timeline: [...this.timeline],
      reloads: [...this.reloads],
      ...(this.status ? { status: this.status } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  private enter(state: string): void {
    const last = this.timeline.at(-1);
    // The link reconnecting, and failing to while the editor is away, is part of a reload,
    // not a state of the editor's: the reload lasts until the editor speaks again.
    if (last?.state === state || ((state === 'connecting' || state === 'away') && this.reloadBegan !== undefined)) return;
    const now = Date.now();
    if (state === 'reloading') this.reloadBegan = now;
    else if (this.reloadBegan !== undefined) {
      // A reload ends when the editor speaks again; the time it took is what a person waited through.
      this.reloads.push(now - this.reloadBegan);
      if (this.reloads.length > MAX_RELOADS) this.reloads.shift();
      this.reloadBegan = undefined;
    }
    this.timeline.push({ state, at: now });
    if (this.timeline.length > MAX_TIMELINE) this.timeline.shift();
  }

  private async poll(): Promise<void> {
    if (this.polling || this.link.state !== 'authenticated') return;
    this.polling = true;
    let changed = true;
    try {
      const answer = HostStatusSchema.parse(await this.link.request(METHODS.hostStatus, {}, 2_000));
      const hello = this.link.hello;
      // The dashboard's own connection is not an agent.
      const status = { ...answer, connections: answer.connections.filter((c) => c.connectionId !== hello?.connectionId) };
      const text = JSON.stringify(status);
      changed = text !== this.statusText || this.error !== undefined || this.timeline.at(-1)?.state !== answer.state;
      this.status = status;
      this.statusText = text;
      this.enter(answer.state);
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.polling = false;
      if (changed) this.options.onChange();
    }
  }
}
