/**
 * Rotations as Unity holds and reports them. A Transform stores a quaternion; Euler angles given
 * to it (Transform.localEulerAngles, Quaternion.Euler) are turned into one, rotating about Z,
 * then X, then Y, and reading localEulerAngles converts the quaternion back: so -90 reads back as
 * 270, and (90, 20, 0) as (90, 0, 340). The Unity package reports localEulerAngles
 * (SceneGraph.Describe); the sandbox stores and reports the same angles, computed here.
 *
 * The conversion back is Unity's native quatToEuler for its rotation order (ZXY), followed by
 * Quaternion.eulerAngles' Internal_MakePositive, which moves each angle into [0, 360) except
 * that values just below 0 (down to -0.0001 rad) stay negative and values within as much of
 * 360 become small negatives.
 */
import type { Vector3 } from './game-object.js';

/** [x, y, z, w]. */
export type Quaternion = [number, number, number, number];

const RADIANS = Math.PI / 180;

/**
 * quatToEuler's cutoff for gimbal lock: past it (X within about 0.1° of ±90°) Y and Z turn about
 * the same axis and Unity puts all of that turn in Z, with Y 0. Its epsilon is 1e-6, as in
 * Unity.Mathematics' port of the same code (math.EulerZXY).
 */
const EPSILON = 1e-6;
const GIMBAL_CUTOFF = (1 - 2 * EPSILON) * (1 - 2 * EPSILON);

/** Internal_MakePositive's margin: -0.0001 rad, in degrees. */
const NEGATIVE_FLIP = -0.0001 / RADIANS;

/** Unity's Quaternion.Euler (degrees): Z first, then X, then Y. Not rounded. */
export function quaternionFromEuler([x, y, z]: readonly number[]): Quaternion {
  const half = (degrees: number | undefined): [number, number] => [Math.sin(((degrees ?? 0) * RADIANS) / 2), Math.cos(((degrees ?? 0) * RADIANS) / 2)];
  const [sx, cx] = half(x);
  const [sy, cy] = half(y);
  const [sz, cz] = half(z);
  return [cy * sx * cz + sy * cx * sz, sy * cx * cz - cy * sx * sz, cy * cx * sz - sy * sx * cz, cy * cx * cz + sy * sx * sz];
}

function makePositive(degrees: number): number {
  if (degrees < NEGATIVE_FLIP) return degrees + 360;
  if (degrees > 360 + NEGATIVE_FLIP) return degrees - 360;
  return degrees;
}

/** Unity's Quaternion.eulerAngles (degrees) of a quaternion, normalized first. Not rounded. */
export function eulerFromQuaternion(q: readonly number[]): Vector3 {
  const length = Math.hypot(...q) || 1;
  const [x, y, z, w] = q.map((v) => v / length) as Quaternion;
  // quatToEuler's ZXY case, term for term: d1 = 2·q·w, d2 = 2·q·q.yzx, d3 = q·q.
  const sinX = 2 * y * z - 2 * x * w;
  let angles: [number, number, number];
  if (sinX * sinX < GIMBAL_CUTOFF) {
    angles = [-Math.asin(sinX), Math.atan2(2 * z * x + 2 * y * w, z * z + w * w - x * x - y * y), Math.atan2(2 * x * y + 2 * z * w, y * y + w * w - x * x - z * z)];
  } else {
    const [a, b, c, d] = [2 * z * x, 2 * y * w, 2 * y * z, 2 * x * w];
    angles = [-Math.asin(Math.max(-1, Math.min(1, sinX))), 0, Math.atan2(2 * (a * d + b * c), -a * a + b * b - c * c + d * d)];
  }
  return angles.map((radians) => makePositive(radians / RADIANS)) as Vector3;
}

/**
 * To 1e-4 degree. Unity computes in single precision, so what it reports carries noise in the
 * fifth significant digit and beyond (270 reads back as 270.00003, 0 as -1.2e-5): the sandbox
 * reports the exact value rounded where that noise starts, which keeps every digit a float
 * angle up to 360 holds (its spacing there is 3e-5) and lets agents compare angles as written.
 */
function roundAngle(degrees: number): number {
  // + 0 turns -0 into 0.
  return Math.round(degrees * 1e4) / 1e4 + 0;
}

/** The local Euler angles Unity reports after being given `euler`: through its quaternion and back, to 1e-4 degree. */
export function unityEuler(euler: readonly number[]): Vector3 {
  return eulerFromQuaternion(quaternionFromEuler(euler)).map(roundAngle) as Vector3;
}
