/**
 * Host protocol v1: every method, its parameters and its result, as zod schemas.
 * docs/protocol.md is the prose form of this file; keep them in step.
 */
import { z } from 'zod';
import { TetherError } from './errors.js';
import { HANDSHAKE_MAX_FRAME_BYTES } from './limits.js';

export const PROTOCOL_VERSION = 1;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1];

export const METHODS = {
  hello: 'tether/hello',
  ping: 'ping',
  toolsList: 'tools/list',
  toolsChanged: 'notifications/tools/list_changed',
  callStart: 'calls/start',
  callStatus: 'calls/status',
  callCancel: 'calls/cancel',
  callProgress: 'notifications/calls/progress',
  log: 'notifications/message',
  resourcesList: 'resources/list',
  resourceTemplatesList: 'resources/templates/list',
  resourcesRead: 'resources/read',
  resourcesSubscribe: 'resources/subscribe',
  resourcesUnsubscribe: 'resources/unsubscribe',
  resourceUpdated: 'notifications/resources/updated',
  resourcesChanged: 'notifications/resources/list_changed',
  promptsList: 'prompts/list',
  promptsGet: 'prompts/get',
  promptsChanged: 'notifications/prompts/list_changed',
  complete: 'completion/complete',
  elicit: 'elicitation/create',
  sample: 'sampling/createMessage',
  hostState: 'notifications/host/state',
  bye: 'notifications/host/bye',
  hostStatus: 'host/status',
} as const;

const json = z.record(z.string(), z.unknown());

// --- Handshake -------------------------------------------------------------------------

/**
 * The client shows it knows the host's token by a proof (the host's record says
 * `"auth": "proof"`), or, with older hosts, by the token itself: one of the two.
 */
export const HelloProof = z.object({
  /** Fresh per connection; 16 to 128 characters. */
  nonce: z.string().min(16).max(128),
  /** base64url HMAC-SHA256 of "tether/hello client <nonce>" under the token. */
  mac: z.string(),
});

/**
 * The client name `tether serve`'s links give in their hello: where several agents already
 * share one connection, so a host evicting it does not advise using tether serve.
 */
export const SERVE_CLIENT_NAME = 'tether-serve';

export const HelloParams = z
  .object({
    token: z.string().optional(),
    proof: HelloProof.optional(),
    protocolVersion: z.number().int(),
    client: z.object({ name: z.string(), version: z.string().optional() }).loose(),
    /** What the connecting side can relay to a human or a model, for tools that ask. */
    capabilities: z.object({ elicitation: z.boolean().optional(), sampling: z.boolean().optional() }).loose().optional(),
    /**
     * The largest frame body the client reads; the host sends up to this (default: the host's own
     * limit). Not below the handshake's 64 KiB: under it, not every error would fit.
     */
    limits: z
      .object({ maxFrameBytes: z.number().int().min(HANDSHAKE_MAX_FRAME_BYTES, `must be at least ${HANDSHAKE_MAX_FRAME_BYTES} (64 KiB)`) })
      .loose()
      .optional(),
  })
  .refine((params) => (params.token === undefined) !== (params.proof === undefined), {
    path: ['token'],
    message: 'give either "token" or "proof" (not both)',
  });
export type HelloParams = z.infer<typeof HelloParams>;

export const HostIdentity = z.object({
  instanceId: z.string(),
  kind: z.string(),
  name: z.string(),
  version: z.string(),
  projectPath: z.string(),
  pid: z.number().int(),
});
export type HostIdentity = z.infer<typeof HostIdentity>;

export const HostStateName = z.enum(['ready', 'compiling', 'reloading', 'playing', 'quitting']);
export type HostStateName = z.infer<typeof HostStateName>;

export const HelloResult = z.object({
  protocolVersion: z.number().int(),
  host: HostIdentity,
  capabilities: z
    .object({
      tools: z.object({ listChanged: z.boolean() }),
      resources: z.object({ subscribe: z.boolean(), listChanged: z.boolean() }),
      prompts: z.object({ listChanged: z.boolean() }),
      completions: z.object({}).loose(),
      /** How many connections the host serves at once; 1 means a new one displaces the old. */
      maxConnections: z.number().int().positive().optional(),
    })
    .loose(),
  limits: z.object({ maxFrameBytes: z.number(), maxHeaderBytes: z.number(), frameTimeoutMs: z.number() }),
  heartbeatMs: z.number(),
  /** How long past a call's deadline the host waits for a tool that has not stopped before giving the call up (§8.6); absent in older hosts. */
  deadlineGraceMs: z.number().optional(),
  /** How often the host pings this connection (§11); 0: never. Absent in older hosts. */
  pingIntervalMs: z.number().optional(),
  state: HostStateName,
  connectionId: z.string(),
  /** Present when the client sent a proof: base64url HMAC-SHA256 of "tether/hello host <nonce>" under the token. */
  proof: z.object({ mac: z.string() }).loose().optional(),
});
export type HelloResult = z.infer<typeof HelloResult>;

// --- Tools -----------------------------------------------------------------------------

export const DuplicatePolicy = z.enum(['attach', 'reject', 'allow']);
export type DuplicatePolicy = z.infer<typeof DuplicatePolicy>;

export const ToolDescriptor = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: json,
  outputSchema: json.optional(),
  annotations: z
    .object({
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .default({}),
  execution: z
    .object({
      /** The tool may run for minutes; callers should expect progress, not a quick answer. */
      longRunning: z.boolean().default(false),
      /** How long a call may run before it is cancelled and reported as timed out. */
      deadlineMs: z.number().int().positive().optional(),
      /** Runs on the editor's main thread, one call at a time. */
      mainThread: z.boolean().default(true),
      /** What an identical call does while this one is queued or running. */
      duplicates: DuplicatePolicy.optional(),
    })
    .default({ longRunning: false, mainThread: true }),
});
export type ToolDescriptor = z.infer<typeof ToolDescriptor>;

export const TextContent = z.object({ type: z.literal('text'), text: z.string() }).loose();
export const ImageContent = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }).loose();
export const ResourceContent = z.object({ type: z.literal('resource'), resource: json }).loose();
export const Content = z.union([TextContent, ImageContent, ResourceContent]);
export type Content = z.infer<typeof Content>;

export const ToolResult = z.object({
  content: z.array(Content),
  structuredContent: json.optional(),
  isError: z.boolean().optional(),
});
export type ToolResult = z.infer<typeof ToolResult>;

// --- Calls -----------------------------------------------------------------------------

/** The longest callId, agent name or agent version (characters): one bound, read by call-start-params.ts too. */
export const MAX_ID_CHARS = 200;
export const CallId = z.string().min(1).max(MAX_ID_CHARS);

/**
 * The MCP client behind a front that asked for a call (its clientInfo from MCP initialize;
 * "tether-call" for a terminal). Additive in v1: hosts journal it and say it in calls/status,
 * host/status and their logs; a host that does not know it ignores it.
 */
export const Agent = z.object({ name: z.string().min(1).max(MAX_ID_CHARS), version: z.string().max(MAX_ID_CHARS).optional() }).loose();
export type Agent = z.infer<typeof Agent>;

export const CallStartParams = z.object({
  callId: CallId,
  tool: z.string().min(1),
  arguments: json.default({}),
  /** Overrides the tool's deadline for this call. */
  deadlineMs: z.number().int().positive().optional(),
  /** Only attach to a call the host already knows; never start one (UNKNOWN_CALL if unknown). */
  attachOnly: z.boolean().optional(),
  /** Who asked for the call, for status and logs; kept from the first calls/start of the callId. */
  agent: Agent.optional(),
});
export type CallStartParams = z.input<typeof CallStartParams>;

export const CallState = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type CallState = z.infer<typeof CallState>;

export const CallStartResult = z.object({
  callId: CallId,
  result: ToolResult,
  /** True when this answer came from the journal rather than from a run this request started. */
  replayed: z.boolean(),
  /** Set when an identical call was already in flight and this one shared its single execution. */
  attachedTo: CallId.optional(),
  startedAt: z.number(),
  finishedAt: z.number(),
});
export type CallStartResult = z.infer<typeof CallStartResult>;

export const CallRef = z.object({ callId: CallId });

export const CallStatus = z.object({
  callId: CallId,
  tool: z.string(),
  state: CallState,
  /** Calls ahead of this one while it is queued. */
  position: z.number().int().optional(),
  queuedAt: z.number(),
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
  result: ToolResult.optional(),
  error: z.object({ code: z.string(), message: z.string(), data: json.optional() }).optional(),
  attachedTo: CallId.optional(),
  /** The agent that asked for the call, when its calls/start said (protocol.md §7.4). */
  agent: Agent.optional(),
});
export type CallStatus = z.infer<typeof CallStatus>;

export const CallCancelParams = z.object({ callId: CallId, reason: z.string().optional() });

export const CallProgress = z.object({
  callId: CallId,
  state: z.enum(['queued', 'running']),
  /** True when the tool reported nothing recently and the host says it is still alive. */
  heartbeat: z.boolean(),
  elapsedMs: z.number(),
  progress: z.number().optional(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export type CallProgress = z.infer<typeof CallProgress>;

export const LogLevel = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
export type LogLevel = z.infer<typeof LogLevel>;
export const LogMessage = z.object({ callId: CallId.optional(), level: LogLevel, logger: z.string().optional(), data: z.unknown() });
export type LogMessage = z.infer<typeof LogMessage>;

export const ElicitParams = z.object({ callId: CallId, message: z.string(), requestedSchema: json });
export const ElicitResult = z.object({ action: z.enum(['accept', 'decline', 'cancel']), content: json.optional() });
export type ElicitResult = z.infer<typeof ElicitResult>;
export const SampleParams = z.object({ callId: CallId }).loose();

// --- Resources, prompts, completion ------------------------------------------------------

export const ResourceDescriptor = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type ResourceDescriptor = z.infer<typeof ResourceDescriptor>;

export const ResourceTemplateDescriptor = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type ResourceTemplateDescriptor = z.infer<typeof ResourceTemplateDescriptor>;

export const ResourceContents = z.object({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
});
export type ResourceContents = z.infer<typeof ResourceContents>;

export const UriParams = z.object({ uri: z.string() });

export const PromptDescriptor = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() })).optional(),
});
export type PromptDescriptor = z.infer<typeof PromptDescriptor>;

export const PromptMessage = z.object({ role: z.enum(['user', 'assistant']), content: Content });
export type PromptMessage = z.infer<typeof PromptMessage>;

export const PromptGetParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.string()).default({}) });

export const CompleteParams = z.object({
  ref: z.union([z.object({ type: z.literal('ref/prompt'), name: z.string() }), z.object({ type: z.literal('ref/resource'), uri: z.string() })]),
  argument: z.object({ name: z.string(), value: z.string() }),
  context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
export type CompleteParams = z.infer<typeof CompleteParams>;

// --- Host state ------------------------------------------------------------------------

export const HostStateNotice = z.object({
  state: HostStateName,
  /** For compiling and reloading: how long the host expects to be away. */
  expectedMs: z.number().optional(),
  at: z.number(),
});
export type HostStateNotice = z.infer<typeof HostStateNotice>;

export const ByeReason = z.enum(['reload', 'quit', 'shutdown', 'evicted', 'handshake_timeout']);
export type ByeReason = z.infer<typeof ByeReason>;

export const Bye = z.object({
  reason: ByeReason,
  message: z.string(),
  /** For a reload: when to expect the host back. */
  expectedBackMs: z.number().optional(),
  at: z.number(),
  /** For an eviction: status "evicted" and the endpoint of the connection that displaced this one. */
  status: z.literal('evicted').optional(),
  newClientEndpoint: z.string().optional(),
});
export type Bye = z.infer<typeof Bye>;

// --- Host status -------------------------------------------------------------------------

/** The most entries each list of a host/status result holds; `omitted` counts the rest. */
export const HOST_STATUS_MAX_ENTRIES = 1_000;

export const HostStatusConnection = z.object({
  connectionId: z.string(),
  client: z.object({ name: z.string(), version: z.string().optional() }).loose(),
  /** The peer's address:port. */
  endpoint: z.string(),
  /** When its handshake completed (epoch ms). */
  since: z.number(),
});
export type HostStatusConnection = z.infer<typeof HostStatusConnection>;

export const HostStatusCall = CallStatus.extend({
  /** The tool's last progress report, while the call is queued or running. */
  lastProgress: z.object({ progress: z.number().optional(), total: z.number().optional(), message: z.string().optional() }).loose().optional(),
});
export type HostStatusCall = z.infer<typeof HostStatusCall>;

export const HostStatusResult = z.object({
  state: HostStateName,
  /** When the host entered `state` (epoch ms). */
  since: z.number(),
  connections: z.array(HostStatusConnection),
  /** Every queued or running call (aliases included), running first, then in queue order. */
  calls: z.array(HostStatusCall),
  /** Calls that ended interrupted (outcome unknown) and are still within retention, newest first. */
  unknownOutcomes: z.array(HostStatusCall),
  /** How many entries of each list were left out past HOST_STATUS_MAX_ENTRIES; absent when none. */
  omitted: z.object({ connections: z.number().int(), calls: z.number().int(), unknownOutcomes: z.number().int() }).loose().optional(),
});
export type HostStatusResult = z.infer<typeof HostStatusResult>;

/** Parses incoming params, turning a schema failure into INVALID_PARAMS that names the field. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown, method: string): z.infer<S> {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const { field, message, issues } = firstIssue(parsed.error, '(params)');
  throw new TetherError('INVALID_PARAMS', `Invalid params for "${method}": ${field}: ${message}.`, { method, field, issues });
}

/**
 * What zod found wrong, said for whoever wrote the value: the first issue's field (`whole`
 * when the value itself is wrong) and message, and every issue for machines.
 */
export function firstIssue(error: z.ZodError, whole: string): { field: string; message: string; issues: Array<{ path: string; message: string }> } {
  const issue = error.issues[0];
  return {
    field: issue && issue.path.length > 0 ? issue.path.map(String).join('.') : whole,
    message: issue?.message ?? 'invalid',
    issues: error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  };
}
