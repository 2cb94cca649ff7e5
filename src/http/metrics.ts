/**
 * Prometheus metrics for `tether serve` (prom-client, on a registry of our own): sessions per
 * pool, calls in flight, call latency, link reconnects, session evictions and memory reclaims.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class ServeMetrics {
  readonly registry = new Registry();
  readonly callLatency: Histogram<'tool' | 'outcome'>;
  readonly reconnects: Counter<'project'>;
  readonly evictions: Counter<'pool' | 'reason'>;
  readonly reclaims: Counter;

  constructor(sources: { sessions(): Record<string, number>; callsInFlight(): number }) {
    // The event-loop delay monitor samples on a timer: prom-client's default (10 ms) woke an
    // idle server 100 times a second. At 100 ms a stall of 100 ms or more is always seen;
    // shorter ones are sampled (one of d ms shows with odds of about d/100).
    collectDefaultMetrics({ register: this.registry, prefix: 'tether_serve_', eventLoopMonitoringPrecision: 100 });
    new Gauge({
      name: 'tether_sessions',
      help: 'MCP sessions (2025-11-25 era) by pool',
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        for (const [pool, size] of Object.entries(sources.sessions())) this.set({ pool }, size);
      },
    });
    new Gauge({
      name: 'tether_calls_in_flight',
      help: 'Tool calls waiting for a host',
      registers: [this.registry],
      collect() {
        this.set(sources.callsInFlight());
      },
    });
    this.callLatency = new Histogram({
      name: 'tether_call_duration_seconds',
      help: 'Tool call latency, from the MCP request to its answer',
      labelNames: ['tool', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
      registers: [this.registry],
    });
    this.reconnects = new Counter({ name: 'tether_host_reconnects_total', help: 'Host link (re)connections after the first', labelNames: ['project'], registers: [this.registry] });
    this.evictions = new Counter({ name: 'tether_session_evictions_total', help: 'Sessions ended by the registry', labelNames: ['pool', 'reason'], registers: [this.registry] });
    this.reclaims = new Counter({
      name: 'tether_memory_reclaims_total',
      help: 'Full garbage collections run to give back the memory of sleeping and ended sessions',
      registers: [this.registry],
    });
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
