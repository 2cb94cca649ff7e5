/**
 * Which editor a link connects to, attempt after attempt: the selection of host-selection.ts
 * over the records as they are now, narrowed, once an editor was reached without --project,
 * to that editor's project. Should that editor crash while another project's runs, a call
 * resent after the drop, or the next one, must not run in the other project.
 */
import { TetherError } from '../protocol/index.js';
import { listHostRecords, type HostRecord } from '../discovery/host-record.js';
import { selectHost, type Selection } from './host-selection.js';

export class HostChooser {
  /** The project of the first editor reached when no --project named one. */
  private boundProject: string | undefined;

  constructor(
    private readonly recordsDir: string,
    private readonly selection: Selection,
  ) {}

  /** The host to connect to: the one for --project, else for the bound project, else by the working directory. */
  choose(): HostRecord {
    const records = listHostRecords(this.recordsDir);
    if (!this.boundProject) return selectHost(records, this.selection);
    try {
      return selectHost(records, { ...this.selection, project: this.boundProject });
    } catch (error) {
      const failure = TetherError.from(error);
      throw new TetherError(
        failure.code,
        `${failure.message} Tether stays with the project of the first editor it reached (${this.boundProject}), so that a call meant for it never runs in another project's editor; to work on another project, start Tether with --project DIR.`,
        { ...failure.data, boundProject: this.boundProject },
      );
    }
  }

  /** The host `choose` would give now, or undefined when it would fail. */
  peek(): HostRecord | undefined {
    try {
      return this.choose();
    } catch {
      return undefined;
    }
  }

  /** An editor was reached: without --project, the link stays with its project from now on. */
  reached(record: HostRecord): void {
    if (!this.selection.project) this.boundProject ??= record.projectPath;
  }

  /** A host instance's record as it is now (it runs, or has not been cleaned up), or undefined. */
  recordOf(instanceId: string): HostRecord | undefined {
    return listHostRecords(this.recordsDir).find((r) => r.instanceId === instanceId);
  }
}
