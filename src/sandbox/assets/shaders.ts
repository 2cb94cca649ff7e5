/**
 * The shaders the sandbox knows: a few of Unity's built-in ones (Built-in Render Pipeline),
 * each with its properties as Unity's Shader API lists them (name, type, description, range,
 * hidden) and the default a new material takes, from the shaders' own Properties blocks.
 */

export type ShaderPropertyType = 'Color' | 'Vector' | 'Float' | 'Range' | 'Texture' | 'Int';

export interface ShaderProperty {
  name: string;
  type: ShaderPropertyType;
  description: string;
  /** Range properties' bounds. */
  range?: [number, number];
  /** [HideInInspector]: set by scripts and the shader's own editor, not shown in the Inspector. */
  hidden: boolean;
  /** A new material's value: numbers, [r, g, b, a], [x, y, z, w], or null (no texture). */
  default: number | number[] | null;
}

const color = (name: string, description: string, value: number[], hidden = false): ShaderProperty => ({ name, type: 'Color', description, hidden, default: value });
const texture = (name: string, description: string): ShaderProperty => ({ name, type: 'Texture', description, hidden: false, default: null });
const float = (name: string, description: string, value: number, hidden = false): ShaderProperty => ({ name, type: 'Float', description, hidden, default: value });
const range = (name: string, description: string, min: number, max: number, value: number): ShaderProperty => ({ name, type: 'Range', description, range: [min, max], hidden: false, default: value });

export const SHADERS: ReadonlyMap<string, readonly ShaderProperty[]> = new Map([
  [
    'Standard',
    [
      color('_Color', 'Color', [1, 1, 1, 1]),
      texture('_MainTex', 'Albedo'),
      range('_Cutoff', 'Alpha Cutoff', 0, 1, 0.5),
      range('_Glossiness', 'Smoothness', 0, 1, 0.5),
      range('_GlossMapScale', 'Smoothness Scale', 0, 1, 1),
      float('_SmoothnessTextureChannel', 'Smoothness texture channel', 0),
      range('_Metallic', 'Metallic', 0, 1, 0),
      texture('_MetallicGlossMap', 'Metallic'),
      float('_SpecularHighlights', 'Specular Highlights', 1),
      float('_GlossyReflections', 'Glossy Reflections', 1),
      float('_BumpScale', 'Scale', 1),
      texture('_BumpMap', 'Normal Map'),
      range('_Parallax', 'Height Scale', 0.005, 0.08, 0.02),
      texture('_ParallaxMap', 'Height Map'),
      range('_OcclusionStrength', 'Strength', 0, 1, 1),
      texture('_OcclusionMap', 'Occlusion'),
      color('_EmissionColor', 'Color', [0, 0, 0, 1]),
      texture('_EmissionMap', 'Emission'),
      texture('_DetailMask', 'Detail Mask'),
      texture('_DetailAlbedoMap', 'Detail Albedo x2'),
      float('_DetailNormalMapScale', 'Scale', 1),
      texture('_DetailNormalMap', 'Normal Map'),
      float('_UVSec', 'UV Set for secondary textures', 0),
      float('_Mode', '__mode', 0, true),
      float('_SrcBlend', '__src', 1, true),
      float('_DstBlend', '__dst', 0, true),
      float('_ZWrite', '__zw', 1, true),
    ],
  ],
  ['Unlit/Color', [color('_Color', 'Main Color', [1, 1, 1, 1])]],
  ['Unlit/Texture', [texture('_MainTex', 'Base (RGB)')]],
  ['Unlit/Transparent', [texture('_MainTex', 'Base (RGB) Trans (A)')]],
  [
    'Sprites/Default',
    [
      texture('_MainTex', 'Sprite Texture'),
      color('_Color', 'Tint', [1, 1, 1, 1]),
      float('PixelSnap', 'Pixel snap', 0),
      color('_RendererColor', 'RendererColor', [1, 1, 1, 1], true),
      { name: '_Flip', type: 'Vector', description: 'Flip', hidden: true, default: [1, 1, 1, 1] },
      texture('_AlphaTex', 'External Alpha'),
      float('_EnableExternalAlpha', 'Enable External Alpha', 0),
    ],
  ],
]);
