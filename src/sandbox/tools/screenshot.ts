/**
 * screenshot: a real PNG (pngjs) of the Scene view (drawn top-down), the Game view (through
 * the main camera) or a given camera, returned as image content. Unity renders the same
 * through its cameras (unity/Editor/Unity/Screenshots/).
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import type { GameObject } from '../game-object.js';
import type { Scene } from '../scene.js';
import { renderCamera } from './screenshot-camera.js';
import { colorOf, isRound, meshOf, Raster } from './screenshot-raster.js';
import { defineTool } from './tool.js';

export function renderScene(scene: Scene, width: number, height: number): Buffer {
  const raster = new Raster(width, height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raster.paint(x, y, (x + y) % 32 === 0 ? [70, 78, 92] : [49, 54, 64]);

  const visible = scene.objects.filter((o) => o.active && o.components.some((c) => c.type === 'MeshRenderer' || c.type === 'Light'));
  const extent = Math.max(5, ...visible.map((o) => Math.max(Math.abs(o.position[0]), Math.abs(o.position[2])) + Math.max(o.scale[0], o.scale[2])));
  const unit = (Math.min(width, height) / 2 - 4) / extent;
  for (const object of visible) {
    const cx = Math.round(width / 2 + object.position[0] * unit);
    const cy = Math.round(height / 2 - object.position[2] * unit);
    const isLight = object.components.some((c) => c.type === 'Light');
    const half = Math.max(2, Math.round(((isLight ? 0.3 : Math.max(object.scale[0], object.scale[2])) * unit) / 2));
    raster.blob(cx, cy, half, isLight || isRound(meshOf(object)), isLight ? [250, 220, 90] : colorOf(object.name));
  }
  return raster.encode();
}

const hasCamera = (o: GameObject): boolean => o.components.some((c) => c.type === 'Camera');

/** The Game view's camera: the active one tagged MainCamera (Camera.main), else the first active camera. */
function gameCamera(scene: Scene): GameObject | undefined {
  const cameras = scene.objects.filter((o) => o.active && hasCamera(o));
  return cameras.find((o) => o.tag === 'MainCamera') ?? cameras[0];
}

/** The camera at `path`, or the error that says which GameObjects have one. */
function requireCamera(scene: Scene, path: string): GameObject {
  const object = scene.require(path);
  if (hasCamera(object)) return object;
  const cameras = scene.objects.filter(hasCamera).map((o) => scene.pathOf(o));
  const suggestions = closestNames(path, cameras);
  const problem = `"${scene.pathOf(object)}" has no Camera`;
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for screenshot: camera: ${problem}. Cameras in the scene: ${cameras.join(', ') || 'none'}.`, {
    tool: 'screenshot',
    field: 'camera',
    problem,
    suggestions,
  });
}

function image(png: Buffer, text: string) {
  return { content: [{ type: 'image' as const, data: png.toString('base64'), mimeType: 'image/png' }, { type: 'text' as const, text }] };
}

export const screenshotTool = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  description:
    'Renders the Scene view (top-down), the Game view (what the main camera sees) or a given camera, at the size asked, to a PNG and returns it as an image.',
  input: z.object({
    width: z.number().int().min(16).max(4096).default(320),
    height: z.number().int().min(16).max(4096).default(240),
    view: z.enum(['scene', 'game', 'camera']).default('scene').describe('"scene": the Scene view; "game": the Game view; "camera": the camera named by camera.'),
    camera: z.string().optional().describe('With view "camera": the path of a GameObject with a Camera, e.g. "/Main Camera".'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ width, height, view, camera }, { scene }) => {
    if ((camera === undefined) !== (view !== 'camera')) {
      const problem = view === 'camera' ? 'view "camera" needs the camera\'s path' : `camera is only for view "camera" (view is "${view}")`;
      throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for screenshot: camera: ${problem}. Give view "camera" with camera "/Path/To/Camera", or another view without camera.`, {
        tool: 'screenshot',
        field: 'camera',
        problem,
      });
    }
    if (view === 'scene') {
      return image(renderScene(scene, width, height), `Scene "${scene.name}", ${scene.objects.length} objects, ${width}x${height} top-down view.`);
    }
    const eye = view === 'camera' ? requireCamera(scene, camera!) : gameCamera(scene);
    if (!eye) {
      throw new TetherError('TOOL_FAILED', 'Nothing to render in the Game view: the scene has no active camera. Add one (create_gameobject with components ["Camera"]), or take view "scene".', { tool: 'screenshot' });
    }
    const through = `${view === 'game' ? 'game view through' : 'camera'} "${scene.pathOf(eye)}"`;
    return image(renderCamera(scene, eye, width, height), `Scene "${scene.name}", ${through}, ${width}x${height}.`);
  },
});
