/**
 * The sandbox editor's own tools (not the conformance kit's or fixtures', not the project's)
 * and how any tool is described to the host. unity/Tests~/fixtures/sandbox-tools.json is this
 * list's descriptors (scripts/dump-sandbox-tools.mjs writes it, test/sandbox/tool-snapshot.test.ts
 * checks it), and the Unity package's [TetherTool] methods must declare the same.
 */
import type { ToolDescriptor } from '../../protocol/index.js';
import { toInputSchema, toJsonSchema } from '../../host/tools.js';
import { assetTools } from './asset-tools.js';
import { batchTool } from './batch-tool.js';
import { consoleTools } from './console-tools.js';
import { editorStateTools } from './editor-state-tools.js';
import { editorTools } from './editor-tools.js';
import { gameObjectTools } from './gameobject-tools.js';
import { menuTools } from './menu-tools.js';
import { prefabTools } from './prefab-tools.js';
import { sceneFileTools } from './scene-file-tools.js';
import { sceneTools } from './scene-tools.js';
import { screenshotTool } from './screenshot.js';
import { serializedTools } from './serialized-tools.js';
import type { SandboxTool } from './tool.js';
import { undoTools } from './undo-tools.js';

export const editorToolSet: readonly SandboxTool[] = [
  ...sceneTools,
  ...consoleTools,
  ...menuTools,
  ...editorTools,
  screenshotTool,
  ...sceneFileTools,
  ...gameObjectTools,
  ...undoTools,
  ...assetTools,
  ...prefabTools,
  ...editorStateTools,
  ...serializedTools,
  batchTool(() => editorToolSet),
];

export function describeTool(tool: SandboxTool): ToolDescriptor {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputJsonSchema ?? toInputSchema(tool.input),
    ...(tool.output ? { outputSchema: toJsonSchema(tool.output) } : {}),
    annotations: tool.annotations,
    execution: { longRunning: false, mainThread: true, ...tool.execution },
  };
}

/** The snapshot's text: what the Unity package's parity tests read. */
export function editorToolSnapshot(): string {
  return `${JSON.stringify({ tools: editorToolSet.map(describeTool) }, null, 2)}\n`;
}
