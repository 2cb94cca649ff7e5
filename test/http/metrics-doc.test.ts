import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServeMetrics } from '../../src/http/metrics.js';
import { REPO_ROOT } from '../helpers/processes.js';

describe('docs/observability.md, the metrics table', () => {
  it("names every metric of Tether's own that tether serve registers, and no other", async () => {
    const metrics = new ServeMetrics({ sessions: () => ({ interactive: 0, ephemeral: 0 }), callsInFlight: () => 0 });
    const registered = (await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name).filter((name) => name.startsWith('tether_') && !name.startsWith('tether_serve_'));
    const text = readFileSync(join(REPO_ROOT, 'docs', 'observability.md'), 'utf8');
    const section = text.slice(text.indexOf('## `/healthz`'));
    const documented = [...section.matchAll(/^\| `(tether_\w+)` \|/gm)].map((match) => match[1]);
    expect(registered.length).toBeGreaterThan(4);
    expect(documented.sort()).toEqual(registered.sort());
  });
});
