/**
 * The resources, resource templates and prompts the official MCP conformance suite
 * (@modelcontextprotocol/conformance, `server` scenarios) expects, served only with
 * --conformance-fixtures. They take the same path as the sandbox's own catalog
 * (catalog-content.ts): static descriptors registered on the host by the network side,
 * contents produced on the main thread. Every URI is under test:// and every prompt name
 * starts with test_, so they can never shadow the editor's own.
 */
import { TetherError, type CompleteParams, type PromptDescriptor, type PromptMessage, type ResourceContents, type ResourceDescriptor, type ResourceTemplateDescriptor } from '../protocol/index.js';
import { matchTemplate } from '../host/catalog.js';

/** A 1x1 red PNG (tools-call-image, resources-read-binary, prompts-get-with-image, …). */
export const TEST_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWP4z8DwHwAFAAH/e+m+7wAAAABJRU5ErkJggg==';
/** A WAV file holding one silent 16-bit sample at 8 kHz (tools-call-audio). */
export const TEST_WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==';

export const STATIC_TEXT_URI = 'test://static-text';
export const STATIC_BINARY_URI = 'test://static-binary';
export const WATCHED_URI = 'test://watched-resource';
export const DATA_TEMPLATE = 'test://template/{id}/data';

const URI_PREFIX = 'test://';

export const CONFORMANCE_RESOURCES: ResourceDescriptor[] = [
  { uri: STATIC_TEXT_URI, name: 'static-text', title: 'Static text resource', description: 'Conformance fixture: a fixed text resource.', mimeType: 'text/plain' },
  { uri: STATIC_BINARY_URI, name: 'static-binary', title: 'Static binary resource', description: 'Conformance fixture: a fixed binary resource (a 1x1 PNG).', mimeType: 'image/png' },
  {
    uri: WATCHED_URI,
    name: 'watched-resource',
    title: 'Watched resource',
    description: 'Conformance fixture: a resource to subscribe to; test_update_watched_resource changes it and notifies subscribers.',
    mimeType: 'text/plain',
  },
];

export const CONFORMANCE_RESOURCE_TEMPLATES: ResourceTemplateDescriptor[] = [
  { uriTemplate: DATA_TEMPLATE, name: 'template-data', title: 'Template data', description: 'Conformance fixture: data for one id.', mimeType: 'application/json' },
];

export const CONFORMANCE_PROMPTS: PromptDescriptor[] = [
  { name: 'test_simple_prompt', title: 'Simple prompt', description: 'Conformance fixture: a prompt without arguments.' },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'Conformance fixture: a prompt with two required arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt with embedded resource',
    description: 'Conformance fixture: a prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', title: 'Prompt with image', description: 'Conformance fixture: a prompt with image content.' },
];

/** Completion candidates for the prompt arguments and the template variable. */
const SUGGESTIONS: Record<string, string[]> = {
  arg1: ['paris', 'park', 'party', 'test', 'testValue1'],
  arg2: ['world', 'testValue2'],
  resourceUri: [STATIC_TEXT_URI, STATIC_BINARY_URI, WATCHED_URI],
  id: ['1', '42', '123'],
};

/** The main thread's fixture state: what survives between requests until a domain reload. */
export class ConformanceState {
  /** Bumped by test_update_watched_resource. */
  watchedVersion = 0;
}

export function isConformanceUri(uri: string): boolean {
  return uri.startsWith(URI_PREFIX);
}

export function isConformancePrompt(name: string): boolean {
  return CONFORMANCE_PROMPTS.some((p) => p.name === name);
}

/** True when a completion request is about a fixture prompt or template. */
export function isConformanceRef(ref: CompleteParams['ref']): boolean {
  return ref.type === 'ref/prompt' ? isConformancePrompt(ref.name) : isConformanceUri(ref.uri);
}

export function readConformanceResource(uri: string, state: ConformanceState): ResourceContents[] {
  if (uri === STATIC_TEXT_URI) return [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }];
  if (uri === STATIC_BINARY_URI) return [{ uri, mimeType: 'image/png', blob: TEST_PNG_BASE64 }];
  if (uri === WATCHED_URI) return [{ uri, mimeType: 'text/plain', text: `Watched resource content, version ${state.watchedVersion}.` }];
  const variables = matchTemplate(DATA_TEMPLATE, uri);
  if (variables?.id !== undefined) {
    const id = variables.id;
    return [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }];
  }
  throw new TetherError('NOT_FOUND', `No resource at "${uri}".`, { uri });
}

export function completeConformance(params: CompleteParams): string[] {
  const value = params.argument.value.toLowerCase();
  return (SUGGESTIONS[params.argument.name] ?? []).filter((s) => s.toLowerCase().startsWith(value));
}

export function getConformancePrompt(name: string, args: Record<string, string>): { description: string; messages: PromptMessage[] } {
  switch (name) {
    case 'test_simple_prompt':
      return { description: 'A simple prompt', messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] };
    case 'test_prompt_with_arguments':
      return {
        description: 'A prompt with arguments',
        messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
      };
    case 'test_prompt_with_embedded_resource':
      return {
        description: 'A prompt with an embedded resource',
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: String(args.resourceUri), mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      };
    case 'test_prompt_with_image':
      return {
        description: 'A prompt with an image',
        messages: [
          { role: 'user', content: { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      };
    default:
      throw new TetherError('NOT_FOUND', `No prompt named "${name}".`, { prompt: name });
  }
}
