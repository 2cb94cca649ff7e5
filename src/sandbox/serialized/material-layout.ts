/**
 * A sandbox material file ({"type": "Material", "shader": "Standard", "properties": {"_Color":
 * [1, 1, 1, 1], "_MainTex": null, "_Glossiness": 0.5}}) seen as Unity serializes a Material:
 * m_Shader, and m_SavedProperties with its m_TexEnvs, m_Floats and m_Colors arrays of
 * {first: name, second: value} pairs, so "m_SavedProperties.m_Colors.Array.data[0].second"
 * means in the sandbox what it means in Unity. Writing maps the pairs back into "properties",
 * keeping their order and whatever else the file holds.
 */
import { arrayOf, color, float, ref, string, struct, vec2, type FieldMap, type StoredReference } from './field-spec.js';

export interface MaterialFile {
  type: string;
  shader?: string;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

const BUILTIN_EXTRA = 'Resources/unity_builtin_extra';

export const MATERIAL_FIELDS: FieldMap = {
  m_Shader: ref('Shader'),
  m_SavedProperties: struct('UnityPropertySheet', {
    m_TexEnvs: arrayOf(struct('TexEnv', { first: string(), second: struct('UnityTexEnv', { m_Texture: ref('Texture'), m_Scale: vec2(1, 1), m_Offset: vec2() }) })),
    m_Floats: arrayOf(struct('Float', { first: string(), second: float() })),
    m_Colors: arrayOf(struct('Color', { first: string(), second: color(0, 0, 0, 0) })),
  }),
};

type Kind = 'm_TexEnvs' | 'm_Floats' | 'm_Colors';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which of Unity's lists a material property's value belongs to (undefined: none, kept as it is). */
function kindOf(value: unknown): Kind | undefined {
  if (typeof value === 'number') return 'm_Floats';
  // Unity keeps vectors with the colors, as four numbers.
  if (Array.isArray(value) && (value.length === 3 || value.length === 4) && value.every((v) => typeof v === 'number')) return 'm_Colors';
  if (value === null || (isRecord(value) && ('asset' in value || 'texture' in value))) return 'm_TexEnvs';
  return undefined;
}

/** The material's serialized values (the stored form PropertyTree edits). */
export function materialValues(file: MaterialFile): Record<string, unknown> {
  const lists: Record<Kind, unknown[]> = { m_TexEnvs: [], m_Floats: [], m_Colors: [] };
  for (const [name, value] of Object.entries(file.properties ?? {})) {
    const kind = kindOf(value);
    if (kind === 'm_Floats') lists.m_Floats.push({ first: name, second: value });
    if (kind === 'm_Colors') lists.m_Colors.push({ first: name, second: (value as number[]).length === 3 ? [...(value as number[]), 1] : value });
    if (kind === 'm_TexEnvs') {
      const texture = isRecord(value) && 'texture' in value ? value : { texture: value };
      lists.m_TexEnvs.push({
        first: name,
        second: { m_Texture: texture.texture ?? null, m_Scale: texture.scale ?? [1, 1], m_Offset: texture.offset ?? [0, 0] },
      });
    }
  }
  return { m_Shader: shaderReference(file.shader ?? 'Standard'), m_SavedProperties: lists };
}

/** The file with `values` written back into "shader" and "properties". */
export function withMaterialValues(file: MaterialFile, values: Record<string, unknown>): MaterialFile {
  const sheet = values.m_SavedProperties as Record<Kind, Array<{ first: string; second: unknown }>>;
  const written = new Map<string, unknown>();
  for (const { first, second } of sheet.m_TexEnvs) {
    const texture = second as { m_Texture: unknown; m_Scale: number[]; m_Offset: number[] };
    const plain = texture.m_Scale.every((v) => v === 1) && texture.m_Offset.every((v) => v === 0);
    written.set(first, plain ? texture.m_Texture : { texture: texture.m_Texture, scale: texture.m_Scale, offset: texture.m_Offset });
  }
  for (const { first, second } of sheet.m_Floats) written.set(first, second);
  for (const { first, second } of sheet.m_Colors) written.set(first, second);
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(file.properties ?? {})) {
    if (kindOf(value) === undefined) properties[name] = value;
    else if (written.has(name)) properties[name] = written.get(name);
  }
  for (const [name, value] of written) if (!(name in properties)) properties[name] = value;
  return { ...file, shader: shaderName(values.m_Shader as StoredReference), properties };
}

function shaderReference(shader: string): StoredReference {
  return shader.endsWith('.shader') ? { asset: shader } : { asset: BUILTIN_EXTRA, name: shader };
}

function shaderName(reference: StoredReference): string {
  if (reference && 'asset' in reference) return reference.asset === BUILTIN_EXTRA && reference.name ? reference.name : reference.asset;
  // Unity shows a material without a shader with its error shader.
  return 'Hidden/InternalErrorShader';
}
