/**
 * The params of calls/start as the link sends them, their JSON written by hand: the link
 * sends one on every call, and `JSON.stringify` of the whole frame was ~13k instructions a
 * call in `tether mcp`, most of them on the envelope and the params' own members, whose keys
 * are fixed. Each call of `JSON.stringify` costs ~2k before it writes a character, so only
 * the arguments, which may be anything, go through it; the rest is written here. The bytes
 * are those of `JSON.stringify` of the params (test/link/call-start-json.test.ts holds them to it).
 */
import type { Agent, CallStartParams } from '../protocol/index.js';
// Internal to the frame writer, not the protocol's public API (src/protocol/index.ts).
import { JsonParams } from '../protocol/json-params.js';
import { jsonText, quoteJson } from '../protocol/json-parts.js';

/**
 * The params with their JSON, in the order the fronts build them (callId, tool, arguments,
 * deadlineMs, agent, then attachOnly, which runHostCall adds). A member the type does not
 * name is not sent (the host's schema would drop it). Params of any other shape than the
 * fronts', and arguments that hold a long string (which the frame writer encodes in slices),
 * go as they are, for the frame writer to stringify.
 */
export function callStartJson(params: CallStartParams): CallStartParams | JsonParams {
  const { callId, tool, arguments: args, deadlineMs, agent, attachOnly } = params;
  if (typeof callId !== 'string' || typeof tool !== 'string') return params;
  let json = `{"callId":${quoteJson(callId)},"tool":${toolNames.quote(tool)}`;
  if (args !== undefined) {
    const text = jsonText(args);
    if (text === undefined) return params;
    json += `,"arguments":${text}`;
  }
  if (deadlineMs !== undefined) {
    if (typeof deadlineMs !== 'number' || !Number.isFinite(deadlineMs)) return params;
    json += `,"deadlineMs":${deadlineMs}`; // a finite number's JSON is its string
  }
  if (agent !== undefined) {
    const text = agentJson(agent);
    if (text === undefined) return params;
    json += `,"agent":${text}`;
  }
  if (attachOnly !== undefined) {
    if (typeof attachOnly !== 'boolean') return params;
    json += `,"attachOnly":${attachOnly}`;
  }
  return new JsonParams(params, `${json}}`);
}

/**
 * The JSON of the string it was last given. A front sends the same tool and agent names call
 * after call: an equal string has the same JSON, and comparing is cheaper than looking for
 * characters to escape (~1k instructions for a short string).
 */
class LastQuoted {
  private text = '';
  private json = '""';

  quote(text: string): string {
    if (text !== this.text) {
      this.json = quoteJson(text);
      this.text = text;
    }
    return this.json;
  }
}

const toolNames = new LastQuoted();
const agentNames = new LastQuoted();
const agentVersions = new LastQuoted();

/** `JSON.stringify` of the fronts' agents, `{ name }` or `{ name, version }` (strings; an undefined version is left out); undefined for any other shape. */
function agentJson(agent: Agent): string | undefined {
  if (typeof agent !== 'object' || agent === null) return undefined;
  const keys = Object.keys(agent);
  const { name, version } = agent;
  if (typeof name !== 'string' || keys[0] !== 'name') return undefined;
  if (keys.length === 1 || (keys.length === 2 && keys[1] === 'version' && version === undefined)) return `{"name":${agentNames.quote(name)}}`;
  if (keys.length !== 2 || keys[1] !== 'version' || typeof version !== 'string') return undefined;
  return `{"name":${agentNames.quote(name)},"version":${agentVersions.quote(version)}}`;
}
