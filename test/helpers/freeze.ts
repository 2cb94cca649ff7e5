/** Freezing an editor's process in a test: its socket stays open, and nothing answers. */
import type { SandboxProcess } from './processes.js';

const frozen: Array<() => void> = [];

/** Freezes the editor (SIGSTOP) until the returned thaw (SIGCONT), or thawAll. */
export function freeze(sandbox: SandboxProcess): () => void {
  sandbox.child.kill('SIGSTOP');
  let thawed = false;
  const thaw = (): void => {
    if (!thawed) sandbox.child.kill('SIGCONT');
    thawed = true;
  };
  frozen.push(thaw);
  return thaw;
}

/** Thaws every editor a test froze: for an afterEach, before its processes are stopped. */
export function thawAll(): void {
  for (const thaw of frozen.splice(0)) thaw();
}
