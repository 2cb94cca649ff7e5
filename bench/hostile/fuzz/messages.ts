/**
 * JSON-RPC shaped inputs from fast-check arbitraries: messages with the methods a parser
 * knows and params close to what it accepts, and everything around them (wrong versions, ids
 * of every JSON type, missing or extra members, batches, bare values). Deterministic for a
 * seed: a batch is fc.sample(arbitrary, { seed, numRuns }).
 */
import fc from 'fast-check';

/** Tools whose fuzzed calls may run for real: cheap, and leaving the scene as it was. */
export const HARMLESS_TOOLS = ['get_hierarchy', 'find_gameobjects', 'read_console', 'list_scenes', 'get_active_scene', 'list_menu_items', 'undo', 'redo'] as const;
/** Tools fuzzed by name only, with arguments that rarely pass their schema. */
export const OTHER_TOOLS = ['create_gameobject', 'modify_gameobject', 'delete_gameobject', 'screenshot', 'run_tests', 'open_scene', 'execute_menu_item', 'add_component', 'play_mode'] as const;

const anyJson = fc.jsonValue({ maxDepth: 4 });
const smallString = fc.string({ maxLength: 24 });
const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -5, max: 1_000_000 }) },
  { weight: 3, arbitrary: smallString },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 1.5, true, {}, [1], '') },
);
const version = fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', '2', '', 2) }, { weight: 1, arbitrary: anyJson });

/** Arguments for a tool: mostly shapes its schema may take, some anything at all. */
const toolArguments = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.record({ name: fc.oneof(smallString, fc.constant('Player'), fc.constant('Main Camera')), limit: fc.integer({ min: -3, max: 5_000 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.dictionary(smallString, anyJson, { maxKeys: 4 }) },
  { weight: 1, arbitrary: anyJson },
);

/** A member that should be an object, sometimes deleted or of another type. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight: 6, arbitrary }, { weight: 1, arbitrary: anyJson });
}

export interface Vocabulary {
  /** Methods the parser knows, with params shaped for each. */
  methods: Record<string, fc.Arbitrary<unknown>>;
}

/** One JSON-RPC message (or batch, or stray value) over a vocabulary. */
export function messageArbitrary(vocabulary: Vocabulary, options: { batches: boolean }): fc.Arbitrary<unknown> {
  const names = Object.keys(vocabulary.methods);
  const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: smallString }, { weight: 1, arbitrary: anyJson });
  const request = fc.tuple(method, version, id, fc.boolean()).chain(([name, jsonrpc, requestId, withParams]) => {
    // Own keys only: a fuzzed method named "constructor" must not find Object's.
    const params = typeof name === 'string' && Object.hasOwn(vocabulary.methods, name) ? vocabulary.methods[name]! : anyJson;
    const members = { jsonrpc: fc.constant(jsonrpc), id: fc.constant(requestId), method: fc.constant(name), params: withParams ? sometimes(params) : fc.constant(undefined) };
    // Mostly whole envelopes, which reach the handlers; sometimes one with members missing.
    return fc.oneof({ weight: 6, arbitrary: fc.record(members) }, { weight: 1, arbitrary: fc.record(members, { requiredKeys: ['method'] }) });
  });
  const notification = fc.record({ jsonrpc: version, method, params: anyJson }, { requiredKeys: ['jsonrpc', 'method'] });
  const response = fc.oneof(
    fc.record({ jsonrpc: version, id, result: anyJson }),
    fc.record({ jsonrpc: version, id, error: fc.record({ code: fc.integer(), message: smallString, data: anyJson }, { requiredKeys: [] }) }),
  );
  const single = fc.oneof({ weight: 10, arbitrary: request }, { weight: 3, arbitrary: notification }, { weight: 2, arbitrary: response }, { weight: 1, arbitrary: anyJson });
  return options.batches ? fc.oneof({ weight: 12, arbitrary: single }, { weight: 1, arbitrary: fc.array(single, { maxLength: 5 }) }) : single;
}

/** The host protocol's methods, after the handshake (docs/protocol.md). */
export function hostVocabulary(): Vocabulary {
  const callId = fc.oneof(fc.uuid(), smallString);
  const tool = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HARMLESS_TOOLS) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_TOOLS) }, { weight: 1, arbitrary: smallString });
  return {
    methods: {
      'tether/hello': fc.record(
        {
          proof: fc.record({ nonce: smallString, mac: smallString }, { requiredKeys: [] }),
          token: smallString,
          protocolVersion: fc.integer({ min: -1, max: 3 }),
          client: fc.record({ name: smallString }),
        },
        { requiredKeys: [] },
      ),
      ping: fc.constant({}),
      'tools/list': fc.constant({}),
      'calls/start': fc.record(
        { callId, tool, arguments: toolArguments, deadlineMs: fc.integer({ min: -1, max: 100_000 }), attachOnly: fc.boolean(), agent: fc.record({ name: smallString }) },
        { requiredKeys: ['callId', 'tool'] },
      ),
      'calls/status': fc.record({ callId }),
      'calls/cancel': fc.record({ callId, reason: smallString }, { requiredKeys: ['callId'] }),
      'resources/list': fc.constant({}),
      'resources/templates/list': fc.constant({}),
      'resources/read': fc.record({ uri: fc.oneof(fc.constantFrom('unity://scene/hierarchy', 'unity://console', 'file:///etc/passwd', '../../x'), smallString) }),
      'resources/subscribe': fc.record({ uri: smallString }),
      'resources/unsubscribe': fc.record({ uri: smallString }),
      'prompts/list': fc.constant({}),
      'prompts/get': fc.record({ name: smallString, arguments: fc.dictionary(smallString, anyJson, { maxKeys: 3 }) }, { requiredKeys: ['name'] }),
      'completion/complete': fc.record({
        ref: fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource', 'x'), name: smallString, uri: smallString }, { requiredKeys: ['type'] }),
        argument: fc.record({ name: smallString, value: anyJson }),
      }),
      'host/status': fc.constant({}),
      'notifications/cancelled': fc.record({ requestId: id, reason: smallString }, { requiredKeys: [] }),
    },
  };
}

/** MCP's methods, as `tether mcp` and `tether serve` take them. */
export function mcpVocabulary(): Vocabulary {
  const tool = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HARMLESS_TOOLS) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_TOOLS, 'tether_status', 'tether_use_host') },
    { weight: 1, arbitrary: smallString },
  );
  const meta = fc.record({ progressToken: id, 'tether/idempotencyKey': fc.oneof(smallString, anyJson), 'tether/deadlineMs': fc.oneof(fc.integer(), anyJson) }, { requiredKeys: [] });
  return {
    methods: {
      initialize: fc.record(
        {
          protocolVersion: fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '2026-07-28', 'x'),
          capabilities: fc.dictionary(smallString, anyJson, { maxKeys: 3 }),
          clientInfo: fc.record({ name: smallString, version: smallString }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      ),
      ping: fc.constant({}),
      'tools/list': fc.record({ cursor: smallString }, { requiredKeys: [] }),
      'tools/call': fc.record({ name: tool, arguments: toolArguments, _meta: meta, task: fc.record({ ttl: fc.integer({ min: -1, max: 100_000 }) }, { requiredKeys: [] }) }, { requiredKeys: ['name'] }),
      'resources/list': fc.constant({}),
      'resources/templates/list': fc.constant({}),
      'resources/read': fc.record({ uri: fc.oneof(fc.constantFrom('unity://scene/hierarchy', 'unity://console', 'file:///etc/passwd'), smallString) }),
      'resources/subscribe': fc.record({ uri: smallString }),
      'prompts/list': fc.constant({}),
      'prompts/get': fc.record({ name: smallString, arguments: fc.dictionary(smallString, anyJson, { maxKeys: 3 }) }, { requiredKeys: ['name'] }),
      'completion/complete': fc.record({
        ref: fc.record({ type: fc.constantFrom('ref/prompt', 'ref/resource'), name: smallString, uri: smallString }, { requiredKeys: ['type'] }),
        argument: fc.record({ name: smallString, value: anyJson }),
      }),
      'logging/setLevel': fc.record({ level: fc.oneof(fc.constantFrom('debug', 'info', 'error', 'emergency'), smallString) }),
      'tasks/get': fc.record({ taskId: smallString }),
      'tasks/list': fc.constant({}),
      'tasks/cancel': fc.record({ taskId: smallString }),
      'tasks/result': fc.record({ taskId: smallString }),
      'notifications/initialized': fc.constant({}),
      'notifications/cancelled': fc.record({ requestId: id, reason: smallString }, { requiredKeys: [] }),
      'notifications/roots/list_changed': fc.constant({}),
    },
  };
}

/** A batch of `count` values of the arbitrary, the same for the same seed. */
export function sampleBatch<T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return fc.sample(arbitrary, { seed: seed | 0, numRuns: count });
}

/** JSON text of a value, or of a stand-in where JSON has none (undefined, a lone bigint…). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
