/**
 * The sandbox editor's undo history: snapshot-based and generic over what it snapshots, so
 * every tool that edits (scenes now, assets and settings later) records its change the same
 * way, as one group, as Unity's Undo does with a tool's whole call:
 *
 *   history.group('Create Enemy', () => scene.create(...))
 *
 * A group captures the target before and after the change; undo restores "before", redo
 * "after". A change that throws is rolled back to "before" and leaves no group, so a tool
 * that fails halfway leaves nothing half-made. A change that altered nothing leaves no group.
 */

/** What the history snapshots and restores. Snapshots must be plain JSON (they are compared and may be persisted). */
export interface UndoTarget<State> {
  capture(): State;
  restore(state: State): void;
}

export interface UndoGroup<State> {
  name: string;
  before: State;
  after: State;
}

/** The history's contents, as persisted (e.g. across the sandbox's domain reloads, as Unity keeps its own). */
export interface UndoRecord<State> {
  done: UndoGroup<State>[];
  undone: UndoGroup<State>[];
}

export interface UndoHistoryOptions<State> {
  /** Groups kept; the oldest go first (default 100). */
  limit?: number;
  /** Called after every change of the history. */
  onChange?(record: UndoRecord<State>): void;
  /** The history to start from. */
  initial?: UndoRecord<State>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A change threw, and restoring the state from before it threw too: both errors are kept, so
 * the restore's does not hide why the change failed (a batch reports them apart, as the Unity
 * package does), and whoever sees it learns that some of the change may remain.
 */
export class RollbackFailed extends Error {
  constructor(
    readonly original: unknown,
    readonly rollbackError: unknown,
  ) {
    super(`${messageOf(original)} Rolling back the change failed too (${messageOf(rollbackError)}): some of it may remain.`, { cause: original });
    this.name = 'RollbackFailed';
  }

  /** What went wrong with the rollback. */
  get rollbackProblem(): string {
    return messageOf(this.rollbackError);
  }
}

export class UndoHistory<State> {
  private done: UndoGroup<State>[];
  private undone: UndoGroup<State>[];
  private readonly limit: number;
  private recording = false;

  constructor(
    private readonly target: UndoTarget<State>,
    private readonly options: UndoHistoryOptions<State> = {},
  ) {
    this.done = [...(options.initial?.done ?? [])];
    this.undone = [...(options.initial?.undone ?? [])];
    this.limit = options.limit ?? 100;
  }

  /** The names of the groups undo would undo, most recent first. */
  get undoNames(): string[] {
    return this.done.map((g) => g.name).reverse();
  }

  /** The names of the groups redo would redo, next first. */
  get redoNames(): string[] {
    return this.undone.map((g) => g.name).reverse();
  }

  /**
   * Runs `change` as one group. Nested groups join the outer one (a tool that runs another
   * tool is still one step). If `change` throws, the target goes back to how it was and the
   * error goes on; should going back throw too, RollbackFailed carries both.
   */
  group<T>(name: string, change: () => T): T {
    if (this.recording) return change();
    const before = this.target.capture();
    this.recording = true;
    let result: T;
    try {
      result = change();
    } catch (error) {
      try {
        this.target.restore(before);
      } catch (rollbackError) {
        throw new RollbackFailed(error, rollbackError);
      }
      throw error;
    } finally {
      this.recording = false;
    }
    const after = this.target.capture();
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      this.done.push({ name, before, after });
      if (this.done.length > this.limit) this.done.splice(0, this.done.length - this.limit);
      this.undone = [];
      this.changed();
    }
    return result;
  }

  /** Undoes up to `steps` groups; returns the names undone, most recent first. */
  undo(steps = 1): string[] {
    return this.move(this.done, this.undone, steps, (g) => g.before);
  }

  /** Redoes up to `steps` groups; returns the names redone, in order. */
  redo(steps = 1): string[] {
    return this.move(this.undone, this.done, steps, (g) => g.after);
  }

  clear(): void {
    this.done = [];
    this.undone = [];
    this.changed();
  }

  private move(from: UndoGroup<State>[], to: UndoGroup<State>[], steps: number, state: (g: UndoGroup<State>) => State): string[] {
    const names: string[] = [];
    for (let i = 0; i < steps; i++) {
      const group = from.pop();
      if (!group) break;
      this.target.restore(state(group));
      to.push(group);
      names.push(group.name);
    }
    if (names.length > 0) this.changed();
    return names;
  }

  private changed(): void {
    this.options.onChange?.({ done: this.done, undone: this.undone });
  }
}
