/**
 * `tether tools`: the editor's tools, what each does, and the arguments each takes, as
 * `tether call` wants them (an MCP client reads the same from tools/list; a terminal user had
 * no way to).
 */
import { HostLink } from '../../link/host-link.js';
import { reloadWaitFor } from '../../link/reload-wait.js';
import { METHODS, TetherError, type ToolDescriptor } from '../../protocol/index.js';
import { unknownTool } from '../../schema/suggest.js';
import { writeJsonFailure } from '../json-failure.js';
import { ProgressLine } from '../progress-line.js';
import { noticeWaits } from '../wait-notice.js';
import { DEFAULT_WAIT_MS } from '../wait-defaults.js';

export interface ToolsCommandOptions {
  project?: string;
  json?: boolean;
  waitMs?: number;
  /** How long, in all, to wait for an editor away for a domain reload while its process runs. */
  reloadWaitMs?: number;
}

/** Every tool, or only `only` (`tether tools TOOL`: the arguments of the tool about to be called). */
export async function run(options: ToolsCommandOptions, only?: string): Promise<void> {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const reloadWaitMs = reloadWaitFor(waitMs, options.reloadWaitMs);
  // It only lists: it answers no question from the editor, and says so.
  const link = new HostLink({ ...(options.project ? { project: options.project } : {}), clientName: 'tether-tools', capabilities: {}, reloadWaitMs }).start();
  const stopNotices = noticeWaits(link, { waitMs, reloadWaitMs }, new ProgressLine(process.stderr));
  // A failure is a TetherError, which the entry point reports (its message and code, exit 1).
  try {
    const { tools: all } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs);
    const tools = only === undefined ? all : all.filter((tool) => tool.name === only);
    if (only !== undefined && tools.length === 0)
      throw unknownTool(
        only,
        all.map((tool) => tool.name),
      );
    if (options.json) process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
    else {
      // The terminal's width, within reason; 80 columns for a pipe or a file.
      const width = Math.min(120, Math.max(60, process.stdout.columns ?? 80));
      process.stdout.write(tools.map((tool) => describe(tool, width)).join('\n'));
    }
  } catch (error) {
    if (options.json) writeJsonFailure(TetherError.from(error));
    throw error;
  } finally {
    stopNotices();
    link.close();
  }
}

/**
 * `name  summary`, the description (wrapped to the terminal), the arguments as --args takes
 * them (`{"depth"?: integer, …}`), then one line per argument: `key=  type  description`, as
 * `tether call TOOL key=value` takes them.
 */
function describe(tool: ToolDescriptor, width: number): string {
  const firstLine = tool.description.split('\n')[0] ?? '';
  const summary = tool.title ?? firstLine;
  const body = (tool.title ? tool.description : tool.description.slice(firstLine.length)).trim();
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {});
  const args = properties.map(([name, property]) => `"${name}"${required.has(name) ? '' : '?'}: ${typeOf(property)}`);
  const lines = [`${tool.name}  ${summary}`];
  if (body && body !== summary) lines.push(...wrap(body, width, '  '));
  lines.push(`  --args '{${args.join(', ')}}'`);
  const keyWidth = Math.max(0, ...properties.map(([name]) => name.length + 1));
  // A long type (an enum of many names) does not push every description to the right.
  const typeWidth = Math.max(0, ...properties.map(([, property]) => typeOf(property).length).filter((length) => length <= LONG_TYPE));
  const notesAt = ' '.repeat(4 + keyWidth + 2 + typeWidth + 2);
  for (const [name, property] of properties) {
    const { description, default: fallback } = property as { description?: unknown; default?: unknown };
    const notes = [...(typeof description === 'string' ? [description] : []), ...(required.has(name) ? ['Required.'] : fallback === undefined ? [] : [`Default: ${JSON.stringify(fallback)}.`])].join(
      ' ',
    );
    const head = `    ${`${name}=`.padEnd(keyWidth)}  ${typeOf(property).padEnd(typeWidth)}`;
    const wrapped = notes ? wrap(notes, width, notesAt) : [];
    if (head.length + 2 > notesAt.length) lines.push(head.trimEnd(), ...wrapped);
    else lines.push(`${head}  ${wrapped[0]?.trimStart() ?? ''}`.trimEnd(), ...wrapped.slice(1));
  }
  return `${lines.join('\n')}\n`;
}

const LONG_TYPE = 24;

/** `text` in lines of at most `width` characters (a longer word stands alone), each after `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n\s*\n|\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && indent.length + line.length + 1 + word.length > width) {
        lines.push(indent + line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(indent + line);
  }
  return lines;
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
