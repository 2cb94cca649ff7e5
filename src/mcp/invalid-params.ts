/**
 * Requests whose params do not fit the MCP schema are the client's mistake: -32602 Invalid
 * params, with a message that names the field. The SDK v2 checks a spec method's params before
 * the handler runs, but reports a failure as a plain Error whose message is the schema
 * library's issue list as JSON, which its dispatcher answers as -32603 Internal error with
 * that dump (seen with `completion/complete` and a non-string `argument.value`).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

interface Issue {
  path: Array<string | number>;
  message: string;
}

/** The -32602 for an SDK params check that failed, or undefined for any other error. */
export function invalidParamsOf(method: string, error: unknown): ProtocolError | undefined {
  if (!(error instanceof Error) || error.constructor !== Error) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(isIssue)) return undefined;
  const said = issues.map((issue) => {
    const path = issue.path[0] === 'params' ? issue.path.slice(1) : issue.path;
    return `${path.length > 0 ? path.join('.') : 'params'}: ${issue.message}`;
  });
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${said.join('; ')}.`);
}

function isIssue(value: unknown): value is Issue {
  if (typeof value !== 'object' || value === null) return false;
  const { path, message } = value as Partial<Issue>;
  return Array.isArray(path) && path.every((part) => typeof part === 'string' || typeof part === 'number') && typeof message === 'string';
}
