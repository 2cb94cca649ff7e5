/**
 * Materials in the sandbox: ".mat" files of the shared convention
 * {"type":"Material","shader":"Standard","properties":{"_Color":[1,1,1,1],"_MainTex":null,…}},
 * their shader one of shaders.ts, every value checked before anything is written. A material
 * keeps the values of properties its shader no longer has, as Unity's does, so switching back
 * restores them; only the shader's own are shown.
 */
import { TetherError } from '../../protocol/index.js';
import type { AssetDatabase } from './asset-database.js';
import type { AssetEntry } from './asset-files.js';
import { assetPath } from './asset-paths.js';
import { typeMatches } from './asset-types.js';
import { materialValue, type MaterialValue } from './material-values.js';
import { unknownName } from './named-choices.js';
import { SHADERS, type ShaderProperty } from './shaders.js';

export interface MaterialFile {
  type: 'Material';
  shader: string;
  properties: Record<string, MaterialValue>;
}

/** A material as the material tools describe it (the same shape in Unity). */
export interface MaterialInfo extends Record<string, unknown> {
  path: string;
  guid: string;
  shader: string;
  properties: Array<{ name: string; type: string; description: string; range?: number[]; hidden: boolean; value: MaterialValue }>;
}

/** The shader named `name`'s properties, or INVALID_ARGUMENTS with the closest shader names. */
export function requireShader(name: string, tool: string): readonly ShaderProperty[] {
  const found = SHADERS.get(name);
  if (found) return found;
  throw unknownName(tool, 'shader', name, `no shader named "${name}"`, [...SHADERS.keys()], 'Shaders:');
}

/** The material at `path`: NOT_FOUND when there is no asset, INVALID_ARGUMENTS when it is another kind. */
export function readMaterial(db: AssetDatabase, path: string, tool: string): { entry: AssetEntry; file: MaterialFile } {
  const entry = db.require(path, tool);
  const file = db.files.readJson(entry.file) as MaterialFile | undefined;
  if (entry.isFolder || !path.endsWith('.mat') || file?.type !== 'Material' || typeof file.shader !== 'string') {
    const problem = `"${path}" is a ${db.typeOf(entry)}, not a Material`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem}. find_assets with "t:Material" lists the materials.`, { tool, field: 'path', problem });
  }
  return { entry, file: { ...file, properties: { ...(file.properties ?? {}) } } };
}

/**
 * `values` checked against the shader's properties (names with "did you mean", types, ranges,
 * textures that exist), as the material stores them. Throws before anything changes.
 */
export function checkedValues(db: AssetDatabase, shader: string, properties: readonly ShaderProperty[], values: Record<string, unknown>, tool: string): Record<string, MaterialValue> {
  const checked: Record<string, MaterialValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const property = properties.find((p) => p.name === name);
    if (!property)
      throw unknownName(
        tool,
        `properties.${name}`,
        name,
        `the shader "${shader}" has no property "${name}"`,
        properties.map((p) => p.name),
        'Its properties:',
      );
    const stored = materialValue(property, value, tool);
    checked[name] = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? { asset: requireTexture(db, stored.asset, name, tool) } : stored;
  }
  return checked;
}

/** The texture asset at `path` (project-relative), or INVALID_ARGUMENTS / NOT_FOUND. */
function requireTexture(db: AssetDatabase, input: string, property: string, tool: string): string {
  const field = `properties.${property}`;
  const path = assetPath(db.project, input, tool, field, 'read');
  const entry = db.require(path, tool, field);
  const type = db.typeOf(entry);
  if (!typeMatches(type, 'Texture')) {
    const problem = `"${path}" is a ${type}, not a Texture`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. find_assets with "t:Texture" lists the textures.`, { tool, field, problem });
  }
  return path;
}

/** A new material's file: the shader's defaults, then `values`. */
export function newMaterial(shader: string, properties: readonly ShaderProperty[], values: Record<string, MaterialValue>): MaterialFile {
  return { type: 'Material', shader, properties: { ...Object.fromEntries(properties.map((p) => [p.name, structuredClone(p.default)])), ...values } };
}

/** The material with another shader: the values it had for that shader's properties kept, the others the shader's defaults. */
export function withShader(file: MaterialFile, shader: string, properties: readonly ShaderProperty[]): MaterialFile {
  const defaults = Object.fromEntries(properties.filter((p) => !(p.name in file.properties)).map((p) => [p.name, structuredClone(p.default)]));
  return { type: 'Material', shader, properties: { ...file.properties, ...defaults } };
}

export function describeMaterial(db: AssetDatabase, entry: AssetEntry, file: MaterialFile): MaterialInfo {
  const properties = SHADERS.get(file.shader) ?? [];
  return {
    path: entry.path,
    guid: db.files.meta(entry).guid,
    shader: file.shader,
    properties: properties.map((p) => ({
      name: p.name,
      type: p.type,
      description: p.description,
      ...(p.range ? { range: [...p.range] } : {}),
      hidden: p.hidden,
      value: shownValue(file.properties[p.name] ?? structuredClone(p.default)),
    })),
  };
}

/** A stored value as the tools show it: a texture with tiling or offset (set_serialized_properties) as its reference alone. */
function shownValue(value: unknown): MaterialValue {
  const record = value as { texture?: unknown } | null;
  return (typeof record === 'object' && record !== null && !Array.isArray(record) && 'texture' in record ? record.texture : value) as MaterialValue;
}
