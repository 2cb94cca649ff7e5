/**
 * What a front knows of its editor beyond the link's state: what the editor last said it is
 * doing (its host/state notices), and so whether an editor that is away is reloading its code
 * domain, which is no failure, or gone. It also logs the link's comings and goings.
 */
import type { Logger } from 'pino';
import type { HostStateNotice } from '../protocol/index.js';
import type { HostLink } from '../link/host-link.js';

export const RELOADING = 'The editor is reloading its code domain; the call continues when it is back.';

export class EditorPresence {
  private notice: HostStateNotice | undefined;

  constructor(
    private readonly link: HostLink,
    log?: Logger,
  ) {
    link.on('hostState', (notice) => (this.notice = notice));
    link.on('connected', (hello) => (this.notice = { state: hello.state, at: Date.now() }));
    // While the editor stays away, every retry repeats "connecting", then "lost" for the same
    // reason: said once at info, then at debug, so a day without an editor is not megabytes of log.
    let lastSaid: string | undefined;
    link.on('state', (state, { error }) => {
      const said = `${state}\0${error?.message ?? ''}`;
      const news = state !== 'connecting' && said !== lastSaid;
      if (news) lastSaid = said;
      log?.[news ? 'info' : 'debug']({ state, reason: error?.message }, 'host link');
    });
  }

  /** What the editor last said it is doing (ready, compiling, reloading, …), if it said anything. */
  get state(): HostStateNotice['state'] | undefined {
    return this.notice?.state;
  }

  /**
   * The editor is away because it reloads: it said so as it left, or said it was reloading
   * lately and its port refuses connections for a moment, which is the reload, not a dead editor.
   */
  isReloading(): boolean {
    if (this.link.state === 'reloading') return true;
    // Or its port refuses while its record stays and its process lives (host-link.ts), as in a reload this front did not see begin.
    return this.link.state !== 'authenticated' && (this.reloadingLately() || this.link.lastFailure?.data.reloading === true);
  }

  /** What a client waiting on a call is told while the editor itself is silent. */
  waitingMessage(): string {
    if (this.isReloading()) return RELOADING;
    if (this.link.state === 'authenticated') return 'Waiting for the editor.';
    return `Waiting for the editor to come back (${this.link.lastFailure?.message ?? this.link.state}).`;
  }

  /** The editor said it was reloading, and is not yet past twice the time it said it would take (or 30 s). */
  private reloadingLately(): boolean {
    const notice = this.notice;
    if (notice?.state !== 'reloading') return false;
    return Date.now() - notice.at < Math.max(30_000, 2 * (notice.expectedMs ?? 0));
  }
}
