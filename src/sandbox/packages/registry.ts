/**
 * The sandbox's package registry: a few packages of Unity's registry as Unity 2021.3 offers
 * them (names, versions, what each depends on), so that adding, listing and removing behave
 * as they would against packages.unity.com, offline. Built-in modules (com.unity.modules.*)
 * are part of the editor.
 */

export interface RegistryPackage {
  displayName: string;
  /** Oldest first; the last is what a name alone resolves to. */
  versions: string[];
  dependencies?: Record<string, string>;
}

export const REGISTRY: Readonly<Record<string, RegistryPackage>> = {
  'com.unity.addressables': { displayName: 'Addressables', versions: ['1.19.19', '1.21.19'], dependencies: { 'com.unity.scriptablebuildpipeline': '1.21.21' } },
  'com.unity.ai.navigation': { displayName: 'AI Navigation', versions: ['1.1.5'] },
  'com.unity.cinemachine': { displayName: 'Cinemachine', versions: ['2.8.9', '2.9.7'] },
  'com.unity.ext.nunit': { displayName: 'Custom NUnit', versions: ['1.0.6'] },
  'com.unity.ide.rider': { displayName: 'JetBrains Rider Editor', versions: ['3.0.28'] },
  'com.unity.ide.visualstudio': { displayName: 'Visual Studio Editor', versions: ['2.0.22'] },
  'com.unity.inputsystem': { displayName: 'Input System', versions: ['1.5.1', '1.6.3', '1.7.0'] },
  'com.unity.nuget.newtonsoft-json': { displayName: 'Newtonsoft Json', versions: ['3.0.2', '3.2.1'] },
  'com.unity.postprocessing': { displayName: 'Post Processing', versions: ['3.2.2'] },
  'com.unity.probuilder': { displayName: 'ProBuilder', versions: ['5.2.2'] },
  'com.unity.render-pipelines.core': { displayName: 'Core RP Library', versions: ['12.1.15'] },
  'com.unity.render-pipelines.universal': { displayName: 'Universal RP', versions: ['12.1.15'], dependencies: { 'com.unity.render-pipelines.core': '12.1.15' } },
  'com.unity.scriptablebuildpipeline': { displayName: 'Scriptable Build Pipeline', versions: ['1.21.21'] },
  'com.unity.test-framework': { displayName: 'Test Framework', versions: ['1.1.33'], dependencies: { 'com.unity.ext.nunit': '1.0.6' } },
  'com.unity.textmeshpro': { displayName: 'TextMeshPro', versions: ['3.0.6'], dependencies: { 'com.unity.ugui': '1.0.0' } },
  'com.unity.timeline': { displayName: 'Timeline', versions: ['1.6.5', '1.7.6'] },
  'com.unity.ugui': { displayName: 'Unity UI', versions: ['1.0.0'] },
};

/** A built-in module: part of the editor, version 1.0.0. */
export function isBuiltInModule(name: string): boolean {
  return name.startsWith('com.unity.modules.');
}

/** The registry's entry for a name (built-in modules included), or undefined. */
export function registryPackage(name: string): RegistryPackage | undefined {
  if (isBuiltInModule(name)) return { displayName: name.slice('com.unity.modules.'.length).replace(/^./, (c) => c.toUpperCase()), versions: ['1.0.0'] };
  return REGISTRY[name];
}
