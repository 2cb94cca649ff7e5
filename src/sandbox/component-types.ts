/**
 * The component types the sandbox editor knows, as Unity knows every Component type of its
 * loaded assemblies: add_component takes only these (with "did you mean" for a near miss).
 * Types Unity allows once per GameObject ([DisallowMultipleComponent], or built in) are marked.
 * Each has the serialized fields Unity gives it, under Unity's own names ("m_Mass", and
 * Camera's "field of view", spaces included), which the serialized-property tools read and write.
 */
import { arrayOf, bool, color, enumOf, float, int, layerMask, rect, ref, struct, vec2, vec3, vector, type FieldMap } from './serialized/field-spec.js';

export interface ComponentType {
  single: boolean;
  /** The Unity class it derives from: "Behaviour", "Collider", "Renderer", … (references check it). */
  base: string;
  fields: FieldMap;
  /** Fields the scene files keep under another key (written before these fields existed). */
  storedAs?: Readonly<Record<string, string>>;
}

const enabled = { m_Enabled: bool(true) };
const collider = { m_Material: ref('PhysicMaterial'), m_IsTrigger: bool(), ...enabled };
const collider2D = { ...enabled, m_Density: float(1), m_Material: ref('PhysicsMaterial2D'), m_IsTrigger: bool(), m_UsedByEffector: bool(), m_Offset: vec2() };
const renderer = {
  ...enabled,
  m_CastShadows: enumOf(['Off', 'On', 'TwoSided', 'ShadowsOnly'], 'On'),
  m_ReceiveShadows: bool(true),
  m_Materials: arrayOf(ref('Material')),
  m_SortingLayerID: int(0),
  m_SortingOrder: int(0),
};
const interpolation = ['None', 'Interpolate', 'Extrapolate'];

function type(base: string, fields: FieldMap, single = true, storedAs?: Record<string, string>): ComponentType {
  return { single, base, fields, ...(storedAs ? { storedAs } : {}) };
}

export const COMPONENT_TYPES: ReadonlyMap<string, ComponentType> = new Map(
  Object.entries({
    Transform: type('Component', {
      m_LocalRotation: vector('Quaternion', [0, 0, 0, 1]),
      m_LocalPosition: vec3(),
      m_LocalScale: vec3(1, 1, 1),
    }),
    Camera: type('Behaviour', {
      m_ClearFlags: enumOf(['Skybox', 'SolidColor', 'Depth', 'Nothing']),
      m_BackGroundColor: color(0.19215687, 0.3019608, 0.4745098, 0),
      m_NormalizedViewPortRect: rect(),
      'near clip plane': float(0.3),
      'far clip plane': float(1000),
      'field of view': float(60),
      orthographic: bool(),
      'orthographic size': float(5),
      m_Depth: float(-1),
      m_CullingMask: layerMask(),
      m_TargetTexture: ref('RenderTexture'),
      m_TargetDisplay: int(0),
      m_HDR: bool(true),
      m_AllowMSAA: bool(true),
      m_OcclusionCulling: bool(true),
      ...enabled,
    }),
    AudioListener: type('Behaviour', enabled),
    AudioSource: type(
      'Behaviour',
      {
        ...enabled,
        m_audioClip: ref('AudioClip'),
        m_PlayOnAwake: bool(true),
        m_Volume: float(1),
        m_Pitch: float(1),
        Loop: bool(),
        Mute: bool(),
        Priority: int(128),
        MinDistance: float(1),
        MaxDistance: float(500),
      },
      false,
    ),
    Light: type(
      'Behaviour',
      {
        ...enabled,
        m_Type: enumOf(['Spot', 'Directional', 'Point', 'Area', 'Disc'], 'Point'),
        m_Color: color(),
        m_Intensity: float(1),
        m_Range: float(10),
        m_SpotAngle: float(30),
        m_InnerSpotAngle: float(21.80208),
        m_Shadows: struct('ShadowSettings', {
          m_Type: enumOf(['None', 'Hard', 'Soft']),
          m_Resolution: int(-1),
          m_Strength: float(1),
          m_Bias: float(0.05),
          m_NormalBias: float(0.4),
          m_NearPlane: float(0.2),
        }),
        m_Cookie: ref('Texture'),
        m_DrawHalo: bool(),
        m_Flare: ref('Flare'),
        m_RenderMode: enumOf(['Auto', 'ForcePixel', 'ForceVertex']),
        m_CullingMask: layerMask(),
        m_BounceIntensity: float(1),
        m_ColorTemperature: float(6570),
        m_UseColorTemperature: bool(),
      },
      true,
      { m_Type: 'type' },
    ),
    MeshFilter: type('Component', { m_Mesh: ref('Mesh') }, true, { m_Mesh: 'mesh' }),
    MeshRenderer: type('Renderer', { ...renderer, m_AdditionalVertexStreams: ref('Mesh') }),
    SkinnedMeshRenderer: type('Renderer', {
      ...renderer,
      m_Mesh: ref('Mesh'),
      m_Bones: arrayOf(ref('Transform')),
      m_RootBone: ref('Transform'),
      m_UpdateWhenOffscreen: bool(),
    }),
    SpriteRenderer: type('Renderer', {
      ...renderer,
      m_Sprite: ref('Sprite'),
      m_Color: color(),
      m_FlipX: bool(),
      m_FlipY: bool(),
      m_DrawMode: enumOf(['Simple', 'Sliced', 'Tiled']),
    }),
    LineRenderer: type('Renderer', {
      ...renderer,
      m_Positions: arrayOf(vec3(), [
        [0, 0, 0],
        [0, 0, 1],
      ]),
      m_Loop: bool(),
      m_UseWorldSpace: bool(true),
    }),
    TrailRenderer: type('Renderer', { ...renderer, m_Time: float(5), m_MinVertexDistance: float(0.1), m_Autodestruct: bool(), m_Emitting: bool(true) }),
    ParticleSystem: type('Component', { lengthInSec: float(5), simulationSpeed: float(1), looping: bool(true), prewarm: bool(), playOnAwake: bool(true), useUnscaledTime: bool() }),
    Animator: type('Behaviour', {
      ...enabled,
      m_Avatar: ref('Avatar'),
      m_Controller: ref('RuntimeAnimatorController'),
      m_CullingMode: enumOf(['AlwaysAnimate', 'CullUpdateTransforms', 'CullCompletely']),
      m_UpdateMode: enumOf(['Normal', 'AnimatePhysics', 'UnscaledTime']),
      m_ApplyRootMotion: bool(),
    }),
    Animation: type('Behaviour', { ...enabled, m_Animation: ref('AnimationClip'), m_Animations: arrayOf(ref('AnimationClip')), m_PlayAutomatically: bool(true) }),
    Rigidbody: type('Component', {
      m_Mass: float(1),
      m_Drag: float(0),
      m_AngularDrag: float(0.05),
      m_UseGravity: bool(true),
      m_IsKinematic: bool(),
      m_Interpolate: enumOf(interpolation),
      m_Constraints: int(0),
      m_CollisionDetection: enumOf(['Discrete', 'Continuous', 'ContinuousDynamic', 'ContinuousSpeculative']),
    }),
    Rigidbody2D: type('Component', {
      m_BodyType: enumOf(['Dynamic', 'Kinematic', 'Static']),
      m_Simulated: bool(true),
      m_Mass: float(1),
      m_LinearDrag: float(0),
      m_AngularDrag: float(0.05),
      m_GravityScale: float(1),
      m_Material: ref('PhysicsMaterial2D'),
      m_Interpolate: enumOf(interpolation),
      m_Constraints: int(0),
    }),
    BoxCollider: type('Collider', { ...collider, m_Size: vec3(1, 1, 1), m_Center: vec3() }, false),
    SphereCollider: type('Collider', { ...collider, m_Radius: float(0.5), m_Center: vec3() }, false),
    CapsuleCollider: type('Collider', { ...collider, m_Radius: float(0.5), m_Height: float(2), m_Direction: int(1), m_Center: vec3() }, false),
    MeshCollider: type('Collider', { ...collider, m_Convex: bool(), m_CookingOptions: int(30), m_Mesh: ref('Mesh') }, false),
    BoxCollider2D: type('Collider2D', { ...collider2D, m_Size: vec2(1, 1), m_EdgeRadius: float(0) }, false),
    CircleCollider2D: type('Collider2D', { ...collider2D, m_Radius: float(0.5) }, false),
    CharacterController: type('Collider', {
      ...collider,
      m_Height: float(2),
      m_Radius: float(0.5),
      m_SlopeLimit: float(45),
      m_StepOffset: float(0.3),
      m_SkinWidth: float(0.08),
      m_MinMoveDistance: float(0.001),
      m_Center: vec3(),
    }),
    NavMeshAgent: type('Behaviour', {
      ...enabled,
      m_Radius: float(0.5),
      m_Speed: float(3.5),
      m_Acceleration: float(8),
      avoidancePriority: int(50),
      m_AngularSpeed: float(120),
      m_StoppingDistance: float(0),
      m_AutoBraking: bool(true),
      m_Height: float(2),
      m_BaseOffset: float(0),
    }),
    Canvas: type('Behaviour', {
      ...enabled,
      m_RenderMode: enumOf(['ScreenSpaceOverlay', 'ScreenSpaceCamera', 'WorldSpace']),
      m_Camera: ref('Camera'),
      m_PlaneDistance: float(100),
      m_PixelPerfect: bool(),
      m_SortingOrder: int(0),
    }),
    CanvasRenderer: type('Component', { m_CullTransparentMesh: bool(true) }),
    ReflectionProbe: type('Behaviour', {
      ...enabled,
      m_Mode: enumOf(['Baked', 'Realtime', 'Custom']),
      m_Resolution: int(128),
      m_Intensity: float(1),
      m_BoxSize: vec3(10, 10, 10),
      m_BoxOffset: vec3(),
      m_Importance: int(1),
    }),
    LODGroup: type('Component', {
      ...enabled,
      m_Size: float(1),
      m_LODs: arrayOf(struct('LOD', { screenRelativeHeight: float(0), renderers: arrayOf(struct('LODRenderer', { renderer: ref('Renderer') })) })),
    }),
  }),
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
