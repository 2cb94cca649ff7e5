/** Resources, resource templates and prompts a host offers beside its tools. */
import {
  TetherError,
  clipped,
  type CompleteParams,
  type PromptDescriptor,
  type PromptMessage,
  type ResourceContents,
  type ResourceDescriptor,
  type ResourceTemplateDescriptor,
} from '../protocol/index.js';
import { cannotAddEntry } from './tools.js';

export interface ResourceDefinition extends ResourceDescriptor {
  read(): ResourceContents[] | Promise<ResourceContents[]>;
}

export interface ResourceTemplateDefinition extends ResourceTemplateDescriptor {
  read(uri: string, variables: Record<string, string>): ResourceContents[] | Promise<ResourceContents[]>;
  /** Completions for a template variable. */
  complete?: Record<string, (value: string) => string[] | Promise<string[]>>;
}

export interface PromptDefinition extends PromptDescriptor {
  get(args: Record<string, string>): { description?: string; messages: PromptMessage[] } | Promise<{ description?: string; messages: PromptMessage[] }>;
  /** Completions for a prompt argument. */
  complete?: Record<string, (value: string, context: Record<string, string>) => string[] | Promise<string[]>>;
}

const MAX_COMPLETIONS = 100;

export class Catalog {
  readonly resources = new Map<string, ResourceDefinition>();
  readonly templates = new Map<string, ResourceTemplateDefinition>();
  readonly prompts = new Map<string, PromptDefinition>();

  addResource(definition: ResourceDefinition): void {
    const { uri } = definition;
    if (typeof uri !== 'string' || uri === '') throw cannotAddEntry('Resource', uri, { uri }, 'its uri must be a non-empty string');
    if (typeof definition.read !== 'function') throw cannotAddEntry('Resource', uri, { uri }, 'it has no read function');
    if (this.resources.has(uri)) throw cannotAddEntry('Resource', uri, { uri }, 'a resource with that URI is already added (removeResource it first to replace it)');
    this.resources.set(uri, definition);
  }

  addTemplate(definition: ResourceTemplateDefinition): void {
    const { uriTemplate } = definition;
    const data = { uriTemplate };
    if (typeof uriTemplate !== 'string' || uriTemplate === '') throw cannotAddEntry('Resource template', uriTemplate, data, 'its uriTemplate must be a non-empty string');
    if (typeof definition.read !== 'function') throw cannotAddEntry('Resource template', uriTemplate, data, 'it has no read function');
    if (this.templates.has(uriTemplate)) {
      throw cannotAddEntry('Resource template', uriTemplate, data, 'a template with that uriTemplate is already added (removeResourceTemplate it first to replace it)');
    }
    this.templates.set(uriTemplate, definition);
  }

  addPrompt(definition: PromptDefinition): void {
    const { name } = definition;
    const data = { prompt: name };
    if (typeof name !== 'string' || name === '') throw cannotAddEntry('Prompt', name, data, 'its name must be a non-empty string');
    if (typeof definition.get !== 'function') throw cannotAddEntry('Prompt', name, data, 'it has no get function');
    if (this.prompts.has(name)) throw cannotAddEntry('Prompt', name, data, 'a prompt of that name is already added (removePrompt it first to replace it)');
    this.prompts.set(name, definition);
  }

  listResources(): ResourceDescriptor[] {
    return [...this.resources.values()].map(({ read: _read, ...descriptor }) => descriptor);
  }

  listTemplates(): ResourceTemplateDescriptor[] {
    return [...this.templates.values()].map(({ read: _read, complete: _complete, ...descriptor }) => descriptor);
  }

  listPrompts(): PromptDescriptor[] {
    return [...this.prompts.values()].map(({ get: _get, complete: _complete, ...descriptor }) => descriptor);
  }

  async read(uri: string): Promise<ResourceContents[]> {
    const fixed = this.resources.get(uri);
    if (fixed) return fixed.read();
    for (const template of this.templates.values()) {
      const variables = matchTemplate(template.uriTemplate, uri);
      if (variables) return template.read(uri, variables);
    }
    throw new TetherError('NOT_FOUND', `No resource at "${clipped(uri)}". resources/list and resources/templates/list show what exists.`, { uri: clipped(uri) });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<{ description?: string; messages: PromptMessage[] }> {
    const prompt = this.prompts.get(name);
    if (!prompt) throw new TetherError('NOT_FOUND', `No prompt named "${clipped(name)}". prompts/list shows every prompt.`, { prompt: clipped(name) });
    for (const argument of prompt.arguments ?? []) {
      if (argument.required && !(argument.name in args)) {
        throw new TetherError('INVALID_PARAMS', `Prompt "${name}" needs the argument "${argument.name}".`, { prompt: name, field: argument.name });
      }
    }
    return prompt.get(args);
  }

  async complete(params: CompleteParams): Promise<{ completion: { values: string[]; total: number; hasMore: boolean } }> {
    let values: string[];
    if (params.ref.type === 'ref/prompt') {
      const prompt = this.prompts.get(params.ref.name);
      if (!prompt) throw new TetherError('NOT_FOUND', `No prompt named "${clipped(params.ref.name)}".`, { prompt: clipped(params.ref.name) });
      values = (await prompt.complete?.[params.argument.name]?.(params.argument.value, params.context?.arguments ?? {})) ?? [];
    } else {
      const uri = params.ref.uri;
      const template = this.templates.get(uri) ?? [...this.templates.values()].find((t) => t.uriTemplate === uri);
      if (!template) throw new TetherError('NOT_FOUND', `No resource template "${clipped(uri)}".`, { uri: clipped(uri) });
      values = (await template.complete?.[params.argument.name]?.(params.argument.value)) ?? [];
    }
    return { completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS } };
  }
}

/** Matches a level-1 RFC 6570 template ("scene://objects/{path}") against a URI. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .replace(/[.*+?^${}()|[\]\\]/g, (char) => `\\${char}`)
    .replace(/\\\{(\w+)\\\}/g, (_match, name: string) => {
      names.push(name);
      return '([^?#]+)';
    });
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
}
