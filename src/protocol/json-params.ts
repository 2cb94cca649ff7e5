/**
 * Params (or a result) whose JSON the sender wrote itself. `JSON.stringify` of a whole
 * message walks every property of every object in it; a sender that knows its params' shape
 * (the link's calls/start, sent on every call) writes most of their JSON with string
 * concatenation and stringifies only what it cannot know, and the frame is then written around
 * that text. A host's answer to calls/start (call-start-result-json.ts) is written the same
 * way, as the `result` of a response.
 */
import type { NotificationMessage, RequestId, RequestMessage, SuccessResponse } from './messages.js';

/**
 * Params and their JSON. `json` must be `JSON.stringify(value)`, byte for byte: the frame is
 * then what it would be with `value` as the params. Anything else that stringifies a message
 * holding one gets `value` (`toJSON`), so the two can never say different things.
 */
export class JsonParams {
  constructor(
    readonly value: unknown,
    readonly json: string,
  ) {}

  toJSON(): unknown {
    return this.value;
  }
}

/** The method last written and its JSON: a link sends the same few methods over and over. */
let lastMethod = '';
let lastMethodJson = '""';

/**
 * `JSON.stringify` of a request or notification in the order RpcConnection builds it
 * (`jsonrpc`, `id`, `method`, `params`), with `paramsJson` as the params' JSON.
 */
export function messageAround(message: RequestMessage | NotificationMessage, paramsJson: string): string {
  const { method } = message;
  if (method !== lastMethod) {
    lastMethodJson = JSON.stringify(method);
    lastMethod = method;
  }
  const { id } = message as Partial<RequestMessage>;
  if (id === undefined) return `{"jsonrpc":"2.0","method":${lastMethodJson},"params":${paramsJson}}`;
  return `{"jsonrpc":"2.0","id":${idJson(id)},"method":${lastMethodJson},"params":${paramsJson}}`;
}

/**
 * `JSON.stringify` of a response in the order RpcConnection builds it (`jsonrpc`, `id`,
 * `result`), with `resultJson` as the result's JSON.
 */
export function responseAround(message: SuccessResponse, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idJson(message.id)},"result":${resultJson}}`;
}

/** A request id's JSON: a finite number's is its string; any other id (a string, a NaN) is stringified. */
export function idJson(id: RequestId): string {
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : JSON.stringify(id);
}
