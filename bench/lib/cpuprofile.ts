/** Summaries of V8 CPU profiles (.cpuprofile): self time by function and by module group. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export function group(url: string): string {
  if (!url) return '(native/gc/idle)';
  if (url.includes('/dist/')) {
    const match = /\/dist\/([^/]+)\//.exec(url.slice(url.indexOf('/dist/')));
    if (url.includes('node_modules')) return `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? '?'}`;
    return `tether ${match?.[1] ?? '?'}/`;
  }
  if (url.includes('node_modules')) return `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? '?'}`;
  if (url.startsWith('node:')) return 'node internals';
  return url.split('/').slice(-2).join('/');
}

export function summarize(path: string, top = 25): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = profile.endTime - profile.startTime;
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').slice(-1)[0] ?? '';
    const key = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''} [${group(url)}]`;
    const special = functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)' ? functionName : undefined;
    byFunction.set(special ?? key, (byFunction.get(special ?? key) ?? 0) + micros);
    byGroup.set(special ?? group(url), (byGroup.get(special ?? group(url)) ?? 0) + micros);
  }
  const busy = total - (byFunction.get('(idle)') ?? 0);
  const pct = (micros: number): string => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
  const lines = [`${path.split('/').slice(-1)[0]}: ${(total / 1000).toFixed(0)} ms profiled, ${(busy / 1000).toFixed(0)} ms busy (percentages of busy time)`];
  lines.push('  by module group:');
  for (const [name, micros] of [...byGroup]
    .filter(([n]) => n !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12))
    lines.push(`    ${pct(micros)}  ${name}`);
  // Inclusive time of Tether's own functions (self plus everything they called).
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, micros] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.includes('/dist/') || frame.url.includes('node_modules')) continue;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/dist/')[1]}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
    }
  }
  lines.push("  Tether's functions, inclusive time:");
  for (const [name, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(micros)}  ${name}`);
  lines.push('  by function (self time):');
  for (const [name, micros] of [...byFunction]
    .filter(([n]) => n !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    lines.push(`    ${pct(micros)}  ${name}`);
  return lines.join('\n');
}
