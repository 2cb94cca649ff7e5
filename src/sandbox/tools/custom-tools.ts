/**
 * Custom tools: a project defines them as files under Assets/Editor/Tools/*.tool.json. Like
 * C# editor scripts in Unity, they exist only once compiled: compile_scripts validates them
 * into Library/ScriptAssemblies/tools.json, and the next domain loads them from there.
 *
 * A tool file: { "name", "description", "inputSchema"? (an object's JSON Schema), "annotations"?, "reply": "text with {{arg}}" }
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { compileToolSchema } from '../../schema/json-schema.js';
import { takesObject } from '../../schema/tool-arguments.js';
import type { Project } from '../project.js';
import { defineTool, type SandboxTool } from './tool.js';

const CustomToolFile = z.object({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/, 'letters, digits, "_" or "-", starting with a letter'),
  title: z.string().optional(),
  description: z.string().min(1),
  inputSchema: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  annotations: z
    .object({ readOnlyHint: z.boolean().optional(), destructiveHint: z.boolean().optional(), idempotentHint: z.boolean().optional() })
    .default({}),
  reply: z.string().default('Done.'),
});
export type CustomToolFile = z.infer<typeof CustomToolFile>;

/**
 * Validates every tool file; what compiles goes into the compiled manifest. A name must be
 * the project's own: not one of the editor's tools (`builtInNames`), not another file's, and
 * not in the "tether_" namespace Tether keeps for its own tools (MCP clients see one list, in
 * which a name may appear once).
 */
export function compileCustomTools(project: Project, builtInNames: ReadonlySet<string>): { tools: CustomToolFile[]; errors: string[] } {
  const tools: CustomToolFile[] = [];
  const errors: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(project.customToolsDir).filter((n) => n.endsWith('.tool.json')).sort();
  } catch {
    // No custom tools folder: nothing to compile.
  }
  const definedIn = new Map<string, string>();
  for (const file of names) {
    try {
      const parsed = CustomToolFile.safeParse(JSON.parse(readFileSync(join(project.customToolsDir, file), 'utf8')));
      if (!parsed.success) {
        errors.push(`Assets/Editor/Tools/${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
        continue;
      }
      const { name } = parsed.data;
      const taken = name.toLowerCase().startsWith('tether_')
        ? 'names starting with "tether_" are reserved for Tether\'s own tools'
        : builtInNames.has(name)
          ? `"${name}" is already one of the editor's tools`
          : definedIn.has(name)
            ? `"${name}" is already defined in Assets/Editor/Tools/${definedIn.get(name)}`
            : undefined;
      const badInput = taken ? undefined : inputSchemaProblem(name, parsed.data.inputSchema);
      if (taken) errors.push(`Assets/Editor/Tools/${file}: name: ${taken}; choose another name.`);
      else if (badInput) errors.push(`Assets/Editor/Tools/${file}: inputSchema: ${badInput}`);
      else {
        definedIn.set(name, file);
        tools.push(parsed.data);
      }
    } catch (error) {
      errors.push(`Assets/Editor/Tools/${file}: ${(error as Error).message}`);
    }
  }
  if (errors.length === 0) project.writeJson(project.compiledToolsPath, tools);
  return { tools, errors };
}

/**
 * Why a tool's input schema cannot be used, if it cannot: MCP clients need an object's schema
 * (one that is not may cost the agent the whole tool list), and one that does not compile
 * would fail the editor when it loads its tools, as it does after every reload.
 */
function inputSchemaProblem(tool: string, schema: Record<string, unknown>): string | undefined {
  if (!takesObject(schema)) return `must be an object's schema ("type": "object"), as MCP requires of a tool's input.`;
  try {
    compileToolSchema(tool, 'input', schema);
    return undefined;
  } catch (error) {
    return `not a valid JSON Schema: ${String(TetherError.from(error).data.reason)}.`;
  }
}

/** The custom tools of the last successful compile. */
export function loadCompiledTools(project: Project): SandboxTool[] {
  // A tool compiled by an earlier version whose schema this one refuses is left out: it
  // would fail at its first call (schemas compile at first use), or fail every start.
  const compiled = project.readJson<CustomToolFile[]>(project.compiledToolsPath, []).filter((file) => inputSchemaProblem(file.name, file.inputSchema) === undefined);
  return compiled.map((file) => ({
    ...defineTool({
      name: file.name,
      ...(file.title ? { title: file.title } : {}),
      description: file.description,
      input: z.record(z.string(), z.unknown()),
      annotations: file.annotations,
      run: (args, { console }) => {
        const text = file.reply.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String(args[key] ?? ''));
        console.write('log', `[${file.name}] ${text}`);
        return text;
      },
    }),
    inputJsonSchema: file.inputSchema,
  }));
}
