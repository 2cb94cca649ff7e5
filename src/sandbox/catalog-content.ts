/**
 * The sandbox's resources and prompts. Descriptors are static (the network side lists them
 * even while the main thread is blocked); contents are produced on the main thread.
 */
import { TetherError, type CompleteParams, type PromptDescriptor, type PromptMessage, type ResourceContents, type ResourceDescriptor, type ResourceTemplateDescriptor } from '../protocol/index.js';
import type { ConsoleLog } from './console-log.js';
import type { Scene } from './scene.js';

export const CONSOLE_URI = 'unity://console/log';
export const HIERARCHY_URI = 'unity://scene/hierarchy';
export const OBJECT_TEMPLATE = 'unity://scene/objects/{path}';

export const RESOURCES: ResourceDescriptor[] = [
  { uri: CONSOLE_URI, name: 'console-log', title: 'Console log', description: 'The editor console, one entry per line.', mimeType: 'text/plain' },
  { uri: HIERARCHY_URI, name: 'scene-hierarchy', title: 'Scene hierarchy', description: 'The open scene as a JSON tree.', mimeType: 'application/json' },
];

export const RESOURCE_TEMPLATES: ResourceTemplateDescriptor[] = [
  {
    uriTemplate: OBJECT_TEMPLATE,
    name: 'gameobject',
    title: 'GameObject',
    description: 'One GameObject by path (URL-encoded, e.g. %2FEnvironment%2FGround).',
    mimeType: 'application/json',
  },
];

export const PROMPTS: PromptDescriptor[] = [
  {
    name: 'fix_console_errors',
    title: 'Fix console errors',
    description: 'Reads the console errors and asks for a fix plan, one error at a time.',
    arguments: [{ name: 'focus', description: 'Only errors containing this text.', required: false }],
  },
  {
    name: 'build_and_verify',
    title: 'Build and verify',
    description: 'Runs the tests, builds the player for a target and checks the console, stopping at the first failure.',
    arguments: [{ name: 'target', description: 'Build target, e.g. StandaloneLinux64.', required: true }],
  },
];

const TARGETS = ['StandaloneLinux64', 'StandaloneWindows64', 'StandaloneOSX', 'Android', 'iOS', 'WebGL'];

export interface EditorState {
  scene: Scene;
  console: ConsoleLog;
}

export function readResource(uri: string, { scene, console }: EditorState): ResourceContents[] {
  if (uri === CONSOLE_URI) return [{ uri, mimeType: 'text/plain', text: console.text() }];
  if (uri === HIERARCHY_URI) return [{ uri, mimeType: 'application/json', text: JSON.stringify(scene.hierarchy(), null, 2) }];
  const prefix = OBJECT_TEMPLATE.slice(0, OBJECT_TEMPLATE.indexOf('{'));
  if (uri.startsWith(prefix)) {
    const object = scene.require(decodeURIComponent(uri.slice(prefix.length)));
    return [{ uri, mimeType: 'application/json', text: JSON.stringify(scene.describe(object), null, 2) }];
  }
  throw new TetherError('NOT_FOUND', `No resource at "${uri}".`, { uri });
}

export function complete(params: CompleteParams, { scene }: EditorState): string[] {
  const value = params.argument.value.toLowerCase();
  if (params.ref.type === 'ref/resource' && params.argument.name === 'path') {
    // In hierarchy order, as the Hierarchy window lists them.
    return scene
      .walk()
      .map((o) => scene.pathOf(o))
      .filter((p) => p.toLowerCase().startsWith(value) || p.toLowerCase().includes(value));
  }
  if (params.ref.type === 'ref/prompt' && params.ref.name === 'build_and_verify' && params.argument.name === 'target') {
    return TARGETS.filter((t) => t.toLowerCase().startsWith(value));
  }
  return [];
}

export function getPrompt(name: string, args: Record<string, string>, { console }: EditorState): { description: string; messages: PromptMessage[] } {
  if (name === 'fix_console_errors') {
    const errors = console.read({ types: ['error'], ...(args.focus ? { filter: args.focus } : {}) });
    const listing = errors.length ? errors.map((e) => `- ${e.message}`).join('\n') : '(the console has no errors)';
    return {
      description: 'Fix the console errors',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `The Unity console shows these errors:\n${listing}\n\nFor each, find the cause (read_console, get_hierarchy), fix it, run compile_scripts, and confirm with read_console that it is gone.`,
          },
        },
      ],
    };
  }
  if (name === 'build_and_verify') {
    return {
      description: `Build and verify for ${args.target}`,
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `1. Run run_tests (EditMode); stop and report if any test fails.\n2. Run build_player with target ${args.target}. It blocks the editor for a while: wait for it, do not call it again.\n3. Read the console for errors and report the build's outcome.`,
          },
        },
      ],
    };
  }
  throw new TetherError('NOT_FOUND', `No prompt named "${name}".`, { prompt: name });
}
