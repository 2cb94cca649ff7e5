/** The machine a run happened on, as docs/reliability.md states it beside each figure. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  os: string;
  node: string;
  descriptorLimit: string;
}

function distribution(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    return pretty ?? '';
  } catch {
    return '';
  }
}

function openFilesLimit(): string {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    return line?.split(/\s{2,}/)[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function machine(): Machine {
  const name = distribution();
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}${name ? ` (${name})` : ''} ${process.arch}`,
    node: process.version,
    descriptorLimit: openFilesLimit(),
  };
}

export function describeMachine(m: Machine): string {
  return `${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node}, open-file limit ${m.descriptorLimit}`;
}
