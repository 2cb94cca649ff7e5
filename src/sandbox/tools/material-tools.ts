/**
 * Material tools: read a material (its shader and every property with its type and value),
 * create one, set its shader and properties. Values are checked against the shader's
 * properties (name, type, range, textures that exist) before anything is written. Creating
 * an asset is not an undo step; setting a material is one (Undo.RecordObject in Unity).
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { AssetDatabase } from '../assets/asset-database.js';
import { assetPath, assetTaken, nameOf, newAssetPath } from '../assets/asset-paths.js';
import { recordAssetForUndo } from '../assets/asset-undo.js';
import { checkedValues, describeMaterial, newMaterial, readMaterial, requireShader, withShader } from '../assets/materials.js';
import { defineTool } from './tool.js';

/** A JSON object of any keys (the Unity package's Dictionary<string, JToken>). */
const propertyValues = z
  .record(z.string(), z.unknown())
  .describe('Property name → value: Color [r, g, b, a] or "#RRGGBB", Vector [x, y, z, w], Float/Range/Int a number, Texture an asset path or null. e.g. {"_Color": [1, 0, 0, 1], "_Glossiness": 0.8}.');

export const materialInfo = z.object({
  path: z.string(),
  guid: z.string(),
  shader: z.string().describe('e.g. "Standard", "Unlit/Color".'),
  properties: z
    .array(
      z.object({
        name: z.string().describe('e.g. "_Color".'),
        type: z.enum(['Color', 'Vector', 'Float', 'Range', 'Texture', 'Int']),
        description: z.string().describe('What the Inspector calls it.'),
        range: z.array(z.number()).optional().describe('A Range property\'s [min, max].'),
        hidden: z.boolean().describe('[HideInInspector]: set by scripts, not shown in the Inspector.'),
        value: z.unknown().describe('[r, g, b, a] for a Color, [x, y, z, w] for a Vector, a number, or {"asset": path} / null for a Texture.'),
      }),
    )
    .describe("The shader's properties with the material's values."),
});

const materialPath = z.string().describe('e.g. "Assets/Materials/Red.mat".');

export const materialTools = [
  defineTool({
    name: 'get_material',
    title: 'Get material',
    description: "Reads a material: its shader and each of the shader's properties with its type, range and the material's value.",
    input: z.object({ path: materialPath }),
    output: z.object({ material: materialInfo }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ path }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const { entry, file } = readMaterial(db, assetPath(project, path, 'get_material', 'path', 'read'), 'get_material');
      return { material: describeMaterial(db, entry, file) };
    },
  }),

  defineTool({
    name: 'create_material',
    title: 'Create material',
    description:
      'Creates a material asset with a shader ("Standard" by default) and initial property values, each checked against the shader. Missing folders are created; an existing asset is never overwritten. Not an undo step (creating assets never is).',
    input: z.object({
      path: z.string().describe('Where to create it, e.g. "Assets/Materials/Red.mat". Must not exist yet.'),
      shader: z.string().min(1).default('Standard').describe('The shader\'s name, e.g. "Standard", "Unlit/Color".'),
      properties: propertyValues.optional(),
    }),
    output: z.object({ material: materialInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ path, shader, properties }, { project, scenes, console }) => {
      const db = new AssetDatabase(project, scenes);
      const target = newAssetPath(project, path, 'create_material', '.mat', 'Assets/Materials/New Material.mat');
      if (db.files.entry(target)) throw assetTaken('create_material', 'path', target, 'Change it with set_material, or choose another path.');
      const shaderProperties = requireShader(shader, 'create_material');
      const file = newMaterial(shader, shaderProperties, checkedValues(db, shader, shaderProperties, properties ?? {}, 'create_material'));
      const entry = db.createJsonAsset(target, file, 'create_material');
      console.write('log', `Created material ${target} (${shader})`);
      return { material: describeMaterial(db, entry, file) };
    },
  }),

  defineTool({
    name: 'set_material',
    title: 'Set material',
    description:
      "Changes a material's shader and/or property values, each checked against the (new) shader before anything changes. Properties of the new shader that the material had keep their values. One undo step.",
    input: z.object({
      path: materialPath,
      shader: z.string().min(1).optional().describe('A new shader, e.g. "Unlit/Color".'),
      properties: propertyValues.optional(),
    }),
    output: z.object({ material: materialInfo, changed: z.array(z.string()).describe('The properties whose values changed, and "shader" when it did.') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ path, shader, properties }, { project, scenes, undo }) => {
      if (shader === undefined && properties === undefined) {
        const problem = 'neither shader nor properties was given, so there is nothing to change';
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for set_material: properties: ${problem}. Give a shader, properties, or both.`, { tool: 'set_material', field: 'properties', problem });
      }
      const db = new AssetDatabase(project, scenes);
      const { entry, file } = readMaterial(db, assetPath(project, path, 'set_material'), 'set_material');
      const shaderName = shader ?? file.shader;
      const shaderProperties = requireShader(shaderName, 'set_material');
      const values = checkedValues(db, shaderName, shaderProperties, properties ?? {}, 'set_material');
      const base = shaderName === file.shader ? file : withShader(file, shaderName, shaderProperties);
      const next = { ...base, properties: { ...base.properties, ...values } };
      const changed = [
        ...(shaderName === file.shader ? [] : ['shader']),
        ...Object.keys(values).filter((name) => JSON.stringify(file.properties[name]) !== JSON.stringify(values[name])),
      ];
      recordAssetForUndo(scenes, project, entry.file);
      undo.group(`Set material ${nameOf(entry.path)}`, () => project.writeJson(db.files.full(entry.file), next));
      return { material: describeMaterial(db, entry, next), changed };
    },
  }),
];
