/**
 * What GameObject.CreatePrimitive gives a GameObject besides its Transform: the built-in mesh,
 * a MeshRenderer with the default material, and the collider that fits the shape (a Cylinder
 * gets a CapsuleCollider, as in Unity; a Plane and a Quad a MeshCollider of their mesh).
 */
import type { Component } from './game-object.js';

export const PRIMITIVES = ['Cube', 'Sphere', 'Capsule', 'Cylinder', 'Plane', 'Quad'] as const;
export type Primitive = (typeof PRIMITIVES)[number];

/** References to built-in resources, as serialized/references.ts reads them. */
const DEFAULT_MATERIAL = { asset: 'Resources/unity_builtin_extra', name: 'Default-Material' };
const builtInMesh = (name: Primitive): { asset: string; name: string } => ({ asset: 'Library/unity default resources', name });

/** The default size of each collider fits its primitive's mesh, so only a MeshCollider needs a value: its mesh. */
function collider(primitive: Primitive): Component {
  switch (primitive) {
    case 'Cube':
      return { type: 'BoxCollider' };
    case 'Sphere':
      return { type: 'SphereCollider' };
    case 'Capsule':
    case 'Cylinder':
      return { type: 'CapsuleCollider' };
    case 'Plane':
    case 'Quad':
      return { type: 'MeshCollider', properties: { m_Mesh: builtInMesh(primitive) } };
  }
}

export function primitiveComponents(primitive: Primitive): Component[] {
  // MeshFilter keeps the mesh under its legacy key, by name (component-values.ts), which the screenshot reads.
  return [{ type: 'MeshFilter', properties: { mesh: primitive } }, { type: 'MeshRenderer', properties: { m_Materials: [DEFAULT_MATERIAL] } }, collider(primitive)];
}
