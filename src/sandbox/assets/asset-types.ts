/**
 * What type of asset a file is, as Unity's AssetDatabase.GetMainAssetTypeAtPath says it
 * (by its importer, which the sandbox reads from the extension), and which "t:" searches
 * find it: a type matches itself and every type it derives from, so "t:Texture" finds
 * Texture2D assets and "t:ScriptableObject" every ScriptableObject asset, as in Unity.
 */

/** Folders are DefaultAsset in Unity; FindAssets also knows them as "t:Folder". */
export const FOLDER_TYPE = 'DefaultAsset';

const BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['.unity', 'SceneAsset'],
  ['.mat', 'Material'],
  ['.prefab', 'GameObject'],
  ['.cs', 'MonoScript'],
  ['.shader', 'Shader'],
  ['.png', 'Texture2D'],
  ['.jpg', 'Texture2D'],
  ['.jpeg', 'Texture2D'],
  ['.tga', 'Texture2D'],
  ['.psd', 'Texture2D'],
  ['.tif', 'Texture2D'],
  ['.tiff', 'Texture2D'],
  ['.bmp', 'Texture2D'],
  ['.gif', 'Texture2D'],
  ['.exr', 'Texture2D'],
  ['.hdr', 'Texture2D'],
  ['.rendertexture', 'RenderTexture'],
  ['.cubemap', 'Cubemap'],
  ['.fbx', 'GameObject'],
  ['.obj', 'GameObject'],
  ['.blend', 'GameObject'],
  ['.wav', 'AudioClip'],
  ['.mp3', 'AudioClip'],
  ['.ogg', 'AudioClip'],
  ['.aif', 'AudioClip'],
  ['.anim', 'AnimationClip'],
  ['.controller', 'AnimatorController'],
  ['.physicmaterial', 'PhysicMaterial'],
  ['.ttf', 'Font'],
  ['.otf', 'Font'],
  ['.asmdef', 'AssemblyDefinitionAsset'],
  ['.txt', 'TextAsset'],
  ['.json', 'TextAsset'],
  ['.bytes', 'TextAsset'],
  ['.csv', 'TextAsset'],
  ['.xml', 'TextAsset'],
  ['.md', 'TextAsset'],
  ['.html', 'TextAsset'],
  ['.yaml', 'TextAsset'],
]);

/** Each type's base types, nearest first (Object is every asset's). */
const BASES: ReadonlyMap<string, readonly string[]> = new Map([
  ['Texture2D', ['Texture']],
  ['RenderTexture', ['Texture']],
  ['Cubemap', ['Texture']],
  ['MonoScript', ['TextAsset']],
  ['AnimatorController', ['RuntimeAnimatorController']],
  ['AnimationClip', ['Motion']],
]);

/** What FindAssets also accepts after "t:" for a type (Unity's own short names). */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['scene', 'SceneAsset'],
  ['prefab', 'GameObject'],
  ['script', 'MonoScript'],
  ['folder', FOLDER_TYPE],
  ['model', 'GameObject'],
]);

/** The type of the file at `path` by its extension; a ".asset" file's is read from it (typeOfAssetFile). */
export function typeByExtension(path: string): string {
  const dot = path.lastIndexOf('.');
  const extension = dot > path.lastIndexOf('/') ? path.slice(dot).toLowerCase() : '';
  return BY_EXTENSION.get(extension) ?? FOLDER_TYPE;
}

/**
 * Whether an asset of type `type` (with `bases` besides the built-in ones, e.g. a project
 * ScriptableObject's ["ScriptableObject"]) is found by "t:`wanted`". Case does not matter.
 */
export function typeMatches(type: string, wanted: string, bases: readonly string[] = []): boolean {
  const target = wanted.toLowerCase();
  const named = ALIASES.get(target)?.toLowerCase();
  const lineage = [type, ...bases, ...(BASES.get(type) ?? []), 'Object'].map((t) => t.toLowerCase());
  return lineage.includes(target) || (named !== undefined && lineage.includes(named));
}
