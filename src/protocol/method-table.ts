/**
 * The method table: each host-protocol method paired with the schemas of its params and its
 * result (and each notification with its params), so a handler's params are validated and
 * typed in one place (RpcConnection.handle) and a request's result is typed by the method it
 * names (requestMethod), instead of a parse and a cast at every use.
 */
import { z } from 'zod';
import { fastCallStartParams } from './call-start-params.js';
import { callStartResultJson } from './call-start-result-json.js';
import {
  Bye,
  CallCancelParams,
  CallProgress,
  CallRef,
  CallStartParams,
  CallStartResult,
  CallStatus,
  CompleteParams,
  ElicitParams,
  ElicitResult,
  HelloParams,
  HelloResult,
  HostStateNotice,
  HostStatusResult,
  LogMessage,
  METHODS,
  PromptDescriptor,
  PromptGetParams,
  PromptMessage,
  ResourceContents,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  SampleParams,
  ToolDescriptor,
  UriParams,
} from './methods.js';

/** A request method: its name, the params its handler takes, and the result it answers with. */
export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly method: string;
  readonly params: P;
  readonly result: R;
  /**
   * Reads the params without the schema when they are ones it certainly accepts, into what its
   * parse returns; undefined leaves them to the schema (whose refusals are the answers).
   */
  readonly fastParams?: (raw: unknown) => z.output<P> | undefined;
  /**
   * The answer with its JSON written by hand (a JsonParams), for a method answered on every
   * call; what it cannot write it returns as it is, for the frame writer to stringify.
   */
  readonly resultJson?: (result: z.input<R>) => unknown;
}

/** A notification: its name and its params. */
export interface NotificationSpec<P extends z.ZodType = z.ZodType> {
  readonly method: string;
  readonly params: P;
}

/** The params a handler is given: validated, defaults applied. */
export type MethodParams<S extends MethodSpec> = z.output<S['params']>;
/** The params a requester sends (defaults may be left out). */
export type MethodArgs<S extends MethodSpec> = z.input<S['params']>;
/** What a handler answers with. */
export type MethodReturn<S extends MethodSpec> = z.input<S['result']>;
/** What a requester is told the answer is (typed, not validated: see requestMethod). */
export type MethodResult<S extends MethodSpec> = z.output<S['result']>;
/** A notification's params. */
export type NotificationParams<S extends NotificationSpec> = z.input<S['params']>;

/**
 * The params of a method that takes none: whatever is sent is ignored (protocol.md says so of
 * tools/list's `cursor`, for instance), so nothing can make such a request invalid.
 */
export const NoParams = z.unknown();
export const EmptyResult = z.object({}).loose();

export const ToolsListResult = z.object({ tools: z.array(ToolDescriptor) });
export const ResourcesListResult = z.object({ resources: z.array(ResourceDescriptor) });
export const ResourceTemplatesListResult = z.object({ resourceTemplates: z.array(ResourceTemplateDescriptor) });
export const ResourcesReadResult = z.object({ contents: z.array(ResourceContents) });
export const PromptsListResult = z.object({ prompts: z.array(PromptDescriptor) });
export const PromptGetResult = z.object({ description: z.string().optional(), messages: z.array(PromptMessage) });
export const CompleteResult = z.object({ completion: z.object({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }) });
/** MCP's CreateMessageResult, relayed as the client's model gave it. */
export const SampleResult = z.unknown();

function request<P extends z.ZodType, R extends z.ZodType>(method: string, params: P, result: R, fast: Pick<MethodSpec<P, R>, 'fastParams' | 'resultJson'> = {}): MethodSpec<P, R> {
  return { method, params, result, ...fast };
}

function notification<P extends z.ZodType>(method: string, params: P): NotificationSpec<P> {
  return { method, params };
}

/** Every request of the host protocol (docs/protocol.md §7), by the key METHODS names it with. */
export const METHOD_TABLE = {
  hello: request(METHODS.hello, HelloParams, HelloResult),
  ping: request(METHODS.ping, NoParams, EmptyResult),
  toolsList: request(METHODS.toolsList, NoParams, ToolsListResult),
  callStart: request(METHODS.callStart, CallStartParams, CallStartResult, { fastParams: fastCallStartParams, resultJson: callStartResultJson }),
  callStatus: request(METHODS.callStatus, CallRef, CallStatus),
  callCancel: request(METHODS.callCancel, CallCancelParams, CallStatus),
  resourcesList: request(METHODS.resourcesList, NoParams, ResourcesListResult),
  resourceTemplatesList: request(METHODS.resourceTemplatesList, NoParams, ResourceTemplatesListResult),
  resourcesRead: request(METHODS.resourcesRead, UriParams, ResourcesReadResult),
  resourcesSubscribe: request(METHODS.resourcesSubscribe, UriParams, EmptyResult),
  resourcesUnsubscribe: request(METHODS.resourcesUnsubscribe, UriParams, EmptyResult),
  promptsList: request(METHODS.promptsList, NoParams, PromptsListResult),
  promptsGet: request(METHODS.promptsGet, PromptGetParams, PromptGetResult),
  complete: request(METHODS.complete, CompleteParams, CompleteResult),
  /** Host → client, during a call. */
  elicit: request(METHODS.elicit, ElicitParams, ElicitResult),
  /** Host → client, during a call. */
  sample: request(METHODS.sample, SampleParams, SampleResult),
  hostStatus: request(METHODS.hostStatus, NoParams, HostStatusResult),
} as const;

/** Every notification of the host protocol. */
export const NOTIFICATION_TABLE = {
  toolsChanged: notification(METHODS.toolsChanged, EmptyResult),
  callProgress: notification(METHODS.callProgress, CallProgress),
  log: notification(METHODS.log, LogMessage),
  resourceUpdated: notification(METHODS.resourceUpdated, UriParams),
  resourcesChanged: notification(METHODS.resourcesChanged, EmptyResult),
  promptsChanged: notification(METHODS.promptsChanged, EmptyResult),
  hostState: notification(METHODS.hostState, HostStateNotice),
  bye: notification(METHODS.bye, Bye),
} as const;
