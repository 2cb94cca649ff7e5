/** The zod shapes of assets in the asset tools' results (the Unity package's AssetSummary, AssetDetails). */
import { z } from 'zod';

/** An asset as these tools describe it (AssetSummary). */
export const assetSummary = z.object({
  path: z.string().describe('Project-relative, e.g. "Assets/Materials/Red.mat".'),
  guid: z.string().describe('Its GUID (32 hex digits), which stays the same when it moves or is renamed.'),
  name: z.string().describe('The file name without its extension.'),
  type: z.string().describe('Its main type: "Material", "Texture2D", "SceneAsset", a ScriptableObject\'s class, "DefaultAsset" for a folder.'),
  isFolder: z.boolean(),
});

export const assetDetails = assetSummary.extend({
  size: z.number().int().describe('Bytes on disk (for a folder, of everything in it).'),
  labels: z.array(z.string()).describe('Its asset labels (find them with "l:Label").'),
  dependencies: z.array(z.string()).describe('The assets it references directly (AssetDatabase.GetDependencies, not recursive).'),
});
