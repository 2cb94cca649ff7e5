/**
 * The shapes the GameObject tools share: a GameObject's name and a vector as arguments, and a
 * GameObject as results describe it (Scene.describe; the Unity package's GameObjectInfo).
 */
import { z } from 'zod';
import type { GameObject, Vector3 } from '../game-object.js';
import type { Scene } from '../scene.js';

/** A GameObject's name: "/" separates the names in a path, so a name holding one would make its path point elsewhere. */
export const objectName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/]*$/, 'must not contain "/", which separates the names in a path')
  .describe('A name without "/" (paths are names joined by "/").');

// An array of exactly three numbers (a zod tuple would emit `items: false`, which some MCP
// clients reject as unportable).
export const vector3 = z
  .array(z.number())
  .length(3)
  .transform((v) => v as Vector3)
  .describe('[x, y, z]');

/** What prefabs/prefab-status.ts says of a GameObject of a prefab instance. */
export const prefabStatusInfo = z.object({
  assetPath: z.string().describe('The prefab asset of the instance it is part of.'),
  instanceRoot: z.boolean().describe('Whether it is the instance\'s (outermost) root.'),
  hasOverrides: z.boolean().optional().describe('On an instance root: whether the instance overrides its prefab (apply_prefab_overrides, revert_prefab_overrides).'),
});

/** A GameObject as the scene tools describe it (Scene.describe). */
export const gameObjectInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  active: z.boolean(),
  tag: z.string(),
  position: z.array(z.number()),
  rotation: z.array(z.number()),
  scale: z.array(z.number()),
  layer: z.number().int().describe('Its layer, from 0 to 31.'),
  components: z.array(z.object({ type: z.string() })),
  prefab: prefabStatusInfo.optional().describe('Present when it is part of a prefab instance.'),
});

export type GameObjectInfo = z.infer<typeof gameObjectInfo>;

export function describeGameObject(scene: Scene, object: GameObject): GameObjectInfo {
  return scene.describe(object) as GameObjectInfo;
}
