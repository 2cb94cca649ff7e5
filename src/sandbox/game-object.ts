/**
 * The shapes a sandbox scene is made of: GameObjects with a transform, components and
 * serialized properties, as the scene files store them. A leaf of its own, so that what reads
 * them (prefabs/, serialized/, the tools) does not depend on the Scene class that uses it.
 */
export type Vector3 = [number, number, number];

export interface Component {
  type: string;
  properties?: Record<string, unknown>;
}

export interface GameObject {
  id: number;
  name: string;
  parentId: number | null;
  active: boolean;
  tag: string;
  position: Vector3;
  rotation: Vector3;
  scale: Vector3;
  components: Component[];
  /** Unity's layer, 0 to 31 (layers.ts); absent means 0, Default. */
  layer?: number;
  /** On the objects of a prefab instance (src/sandbox/prefabs/): the asset, the object's id in it, and whether it is the instance's root. */
  prefab?: PrefabLink;
}

export interface PrefabLink {
  asset: string;
  source: number;
  root?: true;
}

/** A scene's file: JSON, at the scene's asset path with ".json" for ".unity" (scene-paths.ts). */
export interface SceneFile {
  name: string;
  nextId: number;
  objects: GameObject[];
}

export interface HierarchyNode {
  name: string;
  path: string;
  active: boolean;
  components: string[];
  /** On the GameObjects of a prefab instance, as find_gameobjects says it. */
  prefab?: PrefabStatus;
  children?: HierarchyNode[];
}

/** What the scene tools say of a GameObject of a prefab instance (prefabs/prefab-status.ts). */
export interface PrefabStatus {
  assetPath: string;
  instanceRoot: boolean;
  hasOverrides?: boolean;
}
