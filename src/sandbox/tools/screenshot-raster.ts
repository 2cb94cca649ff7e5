/** A PNG to paint the sandbox's screenshots on (pngjs): pixels, discs, squares and convex polygons. */
import { PNG } from 'pngjs';
import type { GameObject } from '../game-object.js';

export type Rgb = [number, number, number];

export class Raster {
  private readonly png: PNG;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.png = new PNG({ width, height });
  }

  paint(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.png.data[i] = r;
    this.png.data[i + 1] = g;
    this.png.data[i + 2] = b;
    this.png.data[i + 3] = 255;
  }

  /** A disc (round) or a square of half-size `half` centred on (cx, cy). */
  blob(cx: number, cy: number, half: number, round: boolean, color: Rgb): void {
    const top = Math.max(-half, -cy);
    const bottom = Math.min(half, this.height - 1 - cy);
    for (let dy = top; dy <= bottom; dy++) {
      for (let dx = Math.max(-half, -cx); dx <= Math.min(half, this.width - 1 - cx); dx++) {
        if (round && dx * dx + dy * dy > half * half) continue;
        this.paint(cx + dx, cy + dy, color);
      }
    }
  }

  /** A convex polygon, filled row by row. */
  polygon(points: ReadonlyArray<[number, number]>, color: Rgb): void {
    if (points.length < 3) return;
    const ys = points.map(([, y]) => y);
    const top = Math.max(0, Math.ceil(Math.min(...ys)));
    const bottom = Math.min(this.height - 1, Math.floor(Math.max(...ys)));
    for (let y = top; y <= bottom; y++) {
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [x1, y1] = points[i]!;
        const [x2, y2] = points[(i + 1) % points.length]!;
        if ((y1 <= y && y < y2) || (y2 <= y && y < y1)) xs.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
      }
      if (xs.length < 2) continue;
      const from = Math.max(0, Math.ceil(Math.min(...xs)));
      const to = Math.min(this.width - 1, Math.floor(Math.max(...xs)));
      for (let x = from; x <= to; x++) this.paint(x, y, color);
    }
  }

  encode(): Buffer {
    return PNG.sync.write(this.png);
  }
}

/** The mesh a MeshFilter names ("Cube" when none). */
export function meshOf(object: GameObject): string {
  return String(object.components.find((c) => c.type === 'MeshFilter')?.properties?.mesh ?? 'Cube');
}

/** A colour of its own for each name. */
export function colorOf(name: string): Rgb {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return [96 + (hash & 0x7f), 96 + ((hash >> 7) & 0x7f), 96 + ((hash >> 14) & 0x7f)];
}

/** Whether a mesh draws round (a disc) rather than square. */
export function isRound(mesh: string): boolean {
  return /Sphere|Capsule|Cylinder/.test(mesh);
}
