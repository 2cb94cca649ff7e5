/**
 * create_scriptable_object: an asset of one of the project's ScriptableObject classes, its
 * serialized fields at their defaults (in the sandbox, a ".asset" file of the shared
 * convention {"type": "<class>", "fields": {…}}). Its fields are read and written with
 * get_serialized_properties / set_serialized_properties on {"asset": path}.
 */
import { z } from 'zod';
import { AssetDatabase } from '../assets/asset-database.js';
import { assetTaken, newAssetPath } from '../assets/asset-paths.js';
import { unknownName } from '../assets/named-choices.js';
import { defaultOf } from '../serialized/field-spec.js';
import type { ScriptCatalog } from '../serialized/script-fields.js';
import { assetSummary } from '../assets/asset-schemas.js';
import { defineTool } from './tool.js';

/** The ScriptableObject class named `name` (short or full), or INVALID_ARGUMENTS with the closest (as the Unity package says it). */
function requireScriptableObject(scripts: ScriptCatalog, name: string, tool: string): string {
  const found = scripts.scriptableObject(name);
  if (found) return found;
  throw unknownName(tool, 'type', name, `no ScriptableObject class named "${name}"`, scripts.scriptableObjectNames(), "The project's ScriptableObject classes:", ' The project declares none: write a class deriving from ScriptableObject first.');
}

/** A new instance's serialized fields at their defaults (m_Script is the class itself, not a field the file holds). */
function defaultFields(scripts: ScriptCatalog, type: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(scripts.fieldsOf(type))
      .filter(([name]) => name !== 'm_Script')
      .map(([name, spec]) => [name, defaultOf(spec)]),
  );
}

export const scriptableObjectTools = [
  defineTool({
    name: 'create_scriptable_object',
    title: 'Create ScriptableObject',
    description:
      "Creates an asset of one of the project's ScriptableObject classes (a wrong name fails with the closest ones), its fields at their defaults; read and write them with get_serialized_properties and set_serialized_properties on {\"asset\": path}. Missing folders are created; an existing asset is never overwritten. Not an undo step (creating assets never is).",
    input: z.object({
      type: z.string().min(1).describe('The class, e.g. "GameSettings" or "MyGame.GameSettings".'),
      path: z.string().describe('Where to create it, e.g. "Assets/Settings/GameSettings.asset". Must not exist yet.'),
    }),
    output: z.object({ asset: assetSummary }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ type, path }, { project, scenes, console }) => {
      const db = new AssetDatabase(project, scenes);
      const declared = requireScriptableObject(db.scripts, type, 'create_scriptable_object');
      const target = newAssetPath(project, path, 'create_scriptable_object', '.asset', `Assets/${declared}.asset`);
      if (db.files.entry(target)) throw assetTaken('create_scriptable_object', 'path', target, 'Change its fields with set_serialized_properties, or choose another path.');
      const entry = db.createJsonAsset(target, { type: declared, fields: defaultFields(db.scripts, declared) }, 'create_scriptable_object');
      console.write('log', `Created ${declared} asset ${target}`);
      return { asset: db.describe(entry) };
    },
  }),
];
