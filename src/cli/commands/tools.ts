/**
 * `tether tools`: the editor's tools and the arguments each takes, as `tether call` wants
 * them (an MCP client reads the same from tools/list; a terminal user had no way to).
 */
import { HostLink } from '../../link/host-link.js';
import { METHODS, TetherError, type ToolDescriptor } from '../../protocol/index.js';
import { writeJsonFailure } from '../json-failure.js';
import { ProgressLine } from '../progress-line.js';
import { noticeWaits } from '../wait-notice.js';

export interface ToolsCommandOptions {
  project?: string;
  json?: boolean;
  waitMs?: number;
}

export async function run(options: ToolsCommandOptions): Promise<void> {
  const link = new HostLink({ ...(options.project ? { project: options.project } : {}), clientName: 'tether-tools' }).start();
  const waitMs = options.waitMs ?? 10_000;
  const stopNotices = noticeWaits(link, waitMs, new ProgressLine(process.stderr));
  // A failure is a TetherError, which the entry point reports (its message and code, exit 1).
  try {
    const { tools } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs);
    if (options.json) process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    else process.stdout.write(tools.map(describe).join(''));
  } catch (error) {
    if (options.json) writeJsonFailure(TetherError.from(error));
    throw error;
  } finally {
    stopNotices();
    link.close();
  }
}

/** `name  summary`, then the arguments as --args takes them: `{"depth"?: integer, …}`. */
function describe(tool: ToolDescriptor): string {
  const summary = tool.title ?? tool.description.split('\n')[0] ?? '';
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const args = Object.entries(schema.properties ?? {}).map(([name, property]) => `"${name}"${required.has(name) ? '' : '?'}: ${typeOf(property)}`);
  return `${tool.name}  ${summary}\n  --args '{${args.join(', ')}}'\n`;
}

/** A JSON Schema's type in a few characters: `string`, `integer[]`, `"Cube" | "Sphere"`. */
function typeOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const { type, enum: values, items, anyOf } = schema as { type?: unknown; enum?: unknown[]; items?: unknown; anyOf?: unknown[] };
  if (Array.isArray(values)) return values.map((value) => JSON.stringify(value)).join(' | ');
  if (Array.isArray(anyOf)) return anyOf.map(typeOf).join(' | ');
  if (type === 'array') {
    const item = typeOf(items);
    return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
  }
  if (Array.isArray(type)) return type.join(' | ');
  return typeof type === 'string' ? type : 'any';
}
