/**
 * The component types the sandbox editor knows, as Unity knows every Component type of its
 * loaded assemblies: add_component takes only these (with "did you mean" for a near miss).
 * Types Unity allows once per GameObject ([DisallowMultipleComponent], or built in) are marked.
 */
export const COMPONENT_TYPES: ReadonlyMap<string, { single: boolean }> = new Map(
  [
    ['Transform', true],
    ['Camera', true],
    ['AudioListener', true],
    ['AudioSource', false],
    ['Light', true],
    ['MeshFilter', true],
    ['MeshRenderer', true],
    ['SkinnedMeshRenderer', true],
    ['SpriteRenderer', true],
    ['LineRenderer', true],
    ['TrailRenderer', true],
    ['ParticleSystem', true],
    ['Animator', true],
    ['Animation', true],
    ['Rigidbody', true],
    ['Rigidbody2D', true],
    ['BoxCollider', false],
    ['SphereCollider', false],
    ['CapsuleCollider', false],
    ['MeshCollider', false],
    ['BoxCollider2D', false],
    ['CircleCollider2D', false],
    ['CharacterController', true],
    ['NavMeshAgent', true],
    ['Canvas', true],
    ['CanvasRenderer', true],
    ['ReflectionProbe', true],
    ['LODGroup', true],
  ].map(([name, single]) => [name as string, { single: single as boolean }]),
);

/** "Enemy" → "Enemy (1)", "Enemy (1)" → "Enemy (2)": the first such name no sibling has (what Unity's Duplicate does). */
export function uniqueSiblingName(name: string, siblings: readonly string[]): string {
  if (!siblings.includes(name)) return name;
  const base = name.replace(/ \(\d+\)$/, '');
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})`;
    if (!siblings.includes(candidate)) return candidate;
  }
}
