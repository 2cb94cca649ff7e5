/**
 * What a camera sees, drawn by the sandbox: every active object with a renderer, in
 * perspective through the camera's world position, rotation and vertical field of view
 * (Unity's conventions: left-handed, +Z forward, Euler angles applied Z, X, then Y), planes
 * first, then far ones before near ones. Planes and quads are drawn as their projected
 * outline (clipped at the near plane), other meshes as a disc or square of their projected
 * size, over a sky.
 */
import type { GameObject } from '../game-object.js';
import type { Scene } from '../scene.js';
import { colorOf, isRound, meshOf, Raster } from './screenshot-raster.js';

type Vec = [number, number, number];
/** A rotation as a 3×3 matrix, rows. */
type Matrix = [Vec, Vec, Vec];

const NEAR = 0.3;
const IDENTITY: Matrix = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

function multiply(a: Matrix, b: Matrix): Matrix {
  const row = (r: Vec): Vec => [0, 1, 2].map((c) => r[0] * b[0][c]! + r[1] * b[1][c]! + r[2] * b[2][c]!) as Vec;
  return [row(a[0]), row(a[1]), row(a[2])];
}

function apply(m: Matrix, v: Vec): Vec {
  return [m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2], m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]];
}

function transpose(m: Matrix): Matrix {
  return [
    [m[0][0], m[1][0], m[2][0]],
    [m[0][1], m[1][1], m[2][1]],
    [m[0][2], m[1][2], m[2][2]],
  ];
}

/** Unity's rotation from Euler angles in degrees: Z first, then X, then Y. */
function rotation([x, y, z]: readonly number[]): Matrix {
  const [a, b, c] = [x ?? 0, y ?? 0, z ?? 0].map((d) => (d * Math.PI) / 180) as Vec;
  const rx: Matrix = [[1, 0, 0], [0, Math.cos(a), -Math.sin(a)], [0, Math.sin(a), Math.cos(a)]];
  const ry: Matrix = [[Math.cos(b), 0, Math.sin(b)], [0, 1, 0], [-Math.sin(b), 0, Math.cos(b)]];
  const rz: Matrix = [[Math.cos(c), -Math.sin(c), 0], [Math.sin(c), Math.cos(c), 0], [0, 0, 1]];
  return multiply(ry, multiply(rx, rz));
}

interface World {
  position: Vec;
  rotation: Matrix;
  scale: Vec;
}

/** An object's world transform: its parents' applied to its local one (scale per axis, no shear). */
function worldOf(scene: Scene, object: GameObject, cache = new Map<number, World>()): World {
  const known = cache.get(object.id);
  if (known) return known;
  const parent = object.parentId === null ? undefined : scene.byId(object.parentId);
  const up: World = parent ? worldOf(scene, parent, cache) : { position: [0, 0, 0], rotation: IDENTITY, scale: [1, 1, 1] };
  const local = object.position.map((v, i) => v * up.scale[i]!) as Vec;
  const offset = apply(up.rotation, local);
  const world: World = {
    position: [up.position[0] + offset[0], up.position[1] + offset[1], up.position[2] + offset[2]],
    rotation: multiply(up.rotation, rotation(object.rotation)),
    scale: object.scale.map((v, i) => v * up.scale[i]!) as Vec,
  };
  cache.set(object.id, world);
  return world;
}

/** Whether an object is active in the hierarchy (itself and every parent). */
function activeInHierarchy(scene: Scene, object: GameObject): boolean {
  for (let current: GameObject | undefined = object; current; current = current.parentId === null ? undefined : scene.byId(current.parentId)) {
    if (!current.active) return false;
  }
  return true;
}

/** The camera's vertical field of view in degrees (its serialized "field of view", 60 by default). */
function fieldOfView(camera: GameObject): number {
  const value = Number(camera.components.find((c) => c.type === 'Camera')?.properties?.['field of view']);
  return Number.isFinite(value) && value > 0 && value < 180 ? value : 60;
}

/** Keeps the part of a polygon (in camera space) in front of the near plane. */
function clipNear(points: Vec[]): Vec[] {
  const out: Vec[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    if (a[2] >= NEAR) out.push(a);
    if (a[2] >= NEAR !== b[2] >= NEAR) {
      const t = (NEAR - a[2]) / (b[2] - a[2]);
      out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), NEAR]);
    }
  }
  return out;
}

export function renderCamera(scene: Scene, camera: GameObject, width: number, height: number): Buffer {
  const raster = new Raster(width, height);
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    const sky: [number, number, number] = [Math.round(100 + 90 * t), Math.round(140 + 60 * t), Math.round(200 + 10 * t)];
    for (let x = 0; x < width; x++) raster.paint(x, y, sky);
  }
  const cache = new Map<number, World>();
  const eye = worldOf(scene, camera, cache);
  const toCamera = transpose(eye.rotation);
  const view = (p: Vec): Vec => apply(toCamera, [p[0] - eye.position[0], p[1] - eye.position[1], p[2] - eye.position[2]]);
  const focal = height / 2 / Math.tan((fieldOfView(camera) * Math.PI) / 360);
  const screen = (v: Vec): [number, number] => [width / 2 + (v[0] / v[2]) * focal, height / 2 - (v[1] / v[2]) * focal];

  const drawn = scene.objects
    .filter((o) => o.components.some((c) => c.type === 'MeshRenderer') && activeInHierarchy(scene, o))
    .map((o) => ({ object: o, world: worldOf(scene, o, cache) }))
    .map((d) => ({ ...d, depth: view(d.world.position)[2], flat: ['Plane', 'Quad'].includes(meshOf(d.object)) }))
    // Far first; planes and quads (floors, walls, signs) before the rest, which stand on or before them.
    .sort((a, b) => Number(b.flat) - Number(a.flat) || b.depth - a.depth);
  for (const { object, world, depth } of drawn) {
    const mesh = meshOf(object);
    const color = colorOf(object.name);
    if (mesh === 'Plane' || mesh === 'Quad') {
      // Unity's plane is 10×10 units in XZ; its quad 1×1 in XY.
      const h = mesh === 'Plane' ? 5 : 0.5;
      const corners: Vec[] = mesh === 'Plane' ? [[-h, 0, -h], [h, 0, -h], [h, 0, h], [-h, 0, h]] : [[-h, -h, 0], [h, -h, 0], [h, h, 0], [-h, h, 0]];
      const inCamera = corners.map((c) => {
        const offset = apply(world.rotation, [c[0] * world.scale[0], c[1] * world.scale[1], c[2] * world.scale[2]]);
        return view([world.position[0] + offset[0], world.position[1] + offset[1], world.position[2] + offset[2]]);
      });
      raster.polygon(clipNear(inCamera).map(screen), color);
      continue;
    }
    if (depth < NEAR) continue;
    const [cx, cy] = screen(view(world.position));
    const half = Math.max(1, Math.round((Math.max(...world.scale.map(Math.abs)) * 0.5 * focal) / depth));
    raster.blob(Math.round(cx), Math.round(cy), half, isRound(mesh), color);
  }
  return raster.encode();
}
