/** screenshot: renders the scene from above into a real PNG (pngjs), returned as image content. */
import { PNG } from 'pngjs';
import { z } from 'zod';
import type { GameObject, Scene } from '../scene.js';
import { defineTool } from './tool.js';

type Rgb = [number, number, number];

export function renderScene(scene: Scene, width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  const paint = (x: number, y: number, [r, g, b]: Rgb): void => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    png.data[i] = r;
    png.data[i + 1] = g;
    png.data[i + 2] = b;
    png.data[i + 3] = 255;
  };
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) paint(x, y, (x + y) % 32 === 0 ? [70, 78, 92] : [49, 54, 64]);

  const visible = scene.objects.filter((o) => o.active && o.components.some((c) => c.type === 'MeshRenderer' || c.type === 'Light'));
  const extent = Math.max(5, ...visible.map((o) => Math.max(Math.abs(o.position[0]), Math.abs(o.position[2])) + Math.max(o.scale[0], o.scale[2])));
  const unit = (Math.min(width, height) / 2 - 4) / extent;
  for (const object of visible) {
    const cx = Math.round(width / 2 + object.position[0] * unit);
    const cy = Math.round(height / 2 - object.position[2] * unit);
    const isLight = object.components.some((c) => c.type === 'Light');
    const half = Math.max(2, Math.round(((isLight ? 0.3 : Math.max(object.scale[0], object.scale[2])) * unit) / 2));
    const round = isLight || /Sphere|Capsule|Cylinder/.test(meshOf(object));
    const color: Rgb = isLight ? [250, 220, 90] : colorOf(object.name);
    for (let dy = -half; dy <= half; dy++) {
      for (let dx = -half; dx <= half; dx++) {
        if (round && dx * dx + dy * dy > half * half) continue;
        paint(cx + dx, cy + dy, color);
      }
    }
  }
  return PNG.sync.write(png);
}

function meshOf(object: GameObject): string {
  return String(object.components.find((c) => c.type === 'MeshFilter')?.properties?.mesh ?? 'Cube');
}

function colorOf(name: string): Rgb {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [96 + (hash & 0x7f), 96 + ((hash >> 7) & 0x7f), 96 + ((hash >> 14) & 0x7f)];
}

export const screenshotTool = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  description: 'Renders the scene view (top-down) to a PNG and returns it as an image.',
  input: z.object({
    width: z.number().int().min(16).max(4096).default(320),
    height: z.number().int().min(16).max(4096).default(240),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ width, height }, { scene }) => ({
    content: [
      { type: 'image', data: renderScene(scene, width, height).toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: `Scene "${scene.name}", ${scene.objects.length} objects, ${width}x${height} top-down view.` },
    ],
  }),
});
