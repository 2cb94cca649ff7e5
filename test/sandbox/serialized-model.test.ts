/**
 * The sandbox's serialized-field model without an editor: scripts read for their serialized
 * fields, values checked against field types (the same words as the Unity package's
 * SerializedValuesTests), the Transform's quaternion and the Euler angles Unity reads back from
 * it, and path globs (HierarchyGlobTests).
 */
import { describe, expect, it } from 'vitest';
import { quaternionFromEuler, unityEuler } from '../../src/sandbox/euler-angles.js';
import { pathGlob } from '../../src/sandbox/path-glob.js';
import { eulerOf, quaternionOf } from '../../src/sandbox/serialized/component-values.js';
import { arrayOf, enumOf, float, int, struct, vec3, type FieldSpec } from '../../src/sandbox/serialized/field-spec.js';
import { readDeclarations } from '../../src/sandbox/serialized/script-declarations.js';
import { normalize, toStored, ValueProblem, type ReferenceCodec } from '../../src/sandbox/serialized/values.js';

const noReferences: ReferenceCodec = { toStored: () => null, toOutput: () => null };

function problemOf(spec: FieldSpec, value: unknown, label = 'field'): ValueProblem {
  try {
    toStored(spec, value, undefined, noReferences, label);
  } catch (error) {
    if (error instanceof ValueProblem) return error;
    throw error;
  }
  throw new Error('no problem');
}

describe('script declarations', () => {
  it('reads the fields Unity serializes, and leaves out the others', () => {
    const source = `
      using UnityEngine;
      namespace Game {
        public enum Mode { Walk, Run = 5, [InspectorName("x")] Fly }
        /* public int commented; */
        [DisallowMultipleComponent]
        public class Mover : MonoBehaviour, ISomething {
          public float speed = 2.5f, boost; // two at once
          [SerializeField] private Vector3 offset = new Vector3(1, 2, 3);
          [SerializeField, Range(0, 1)] protected int level;
          public string title = "a;b{c}";
          public Mode mode = Mode.Run;
          [System.NonSerialized] public int notSaved;
          public readonly int fixedValue = 1;
          public const int Constant = 2;
          static int shared;
          private int hidden;
          public int Property { get; private set; }
          public event System.Action Changed;
          public void Move(int steps = 3) { var s = "}"; if (steps > 0) { steps--; } }
          [SerializeReference] public object anything;
        }
      }`;
    const declared = readDeclarations(source);
    expect(declared.enums.get('Mode')).toEqual(['Walk', 'Run', 'Fly']);
    const mover = declared.classes.find((c) => c.name === 'Mover');
    expect(mover).toMatchObject({ fullName: 'Game.Mover', base: 'MonoBehaviour', kind: 'class' });
    expect(mover?.fields.map((f) => [f.name, f.typeText, f.initializer ?? null])).toEqual([
      ['speed', 'float', '2.5f'],
      ['boost', 'float', null],
      ['offset', 'Vector3', 'new Vector3(1, 2, 3)'],
      ['level', 'int', null],
      ['title', 'string', '"§1"'],
      ['mode', 'Mode', 'Mode.Run'],
      ['anything', 'object', null],
    ]);
    expect(declared.literals[1]).toBe('a;b{c}');
    expect(mover?.fields.find((f) => f.name === 'anything')?.managedReference).toBe(true);
  });

  it('knows [Serializable] classes and structs, and generic types it leaves alone', () => {
    const declared = readDeclarations('[System.Serializable] public struct Stat { public int value; } public class Box<T> { public T item; } class Plain { public int x; }');
    expect(declared.classes.map((c) => [c.name, c.kind, c.serializable])).toEqual([
      ['Stat', 'struct', true],
      ['Plain', 'class', false],
    ]);
  });
});

describe('serialized values', () => {
  it("stores values of the field's type, and says what a wrong one should be", () => {
    expect(toStored(float(), 2, undefined, noReferences, 'm_Mass')).toBe(2);
    expect(toStored(enumOf(['None', 'Interpolate']), 1, undefined, noReferences, 'e')).toBe('Interpolate');
    expect(toStored(struct('S', { a: int(), b: float(2) }), { a: 4 }, { a: 1, b: 3 }, noReferences, 's')).toEqual({ a: 4, b: 3 });
    expect(toStored(arrayOf(vec3()), [[1, 2, 3]], [], noReferences, 'w')).toEqual([[1, 2, 3]]);

    expect(problemOf(float(), 'heavy', 'm_Mass')).toMatchObject({ problem: 'm_Mass is a Float, not the string "heavy"', hint: 'Give a number, e.g. 1.5.' });
    expect(problemOf(int(), 1.5, 'maxHealth').problem).toBe('maxHealth is an Integer, not number 1.5');
    expect(problemOf(vec3(), [1, 2], 'waypoints[0]')).toMatchObject({ problem: 'waypoints[0] is a Vector3, not an array of 2', hint: 'Give [x, y, z], 3 numbers.' });
    expect(problemOf(arrayOf(vec3()), {}, 'w').problem).toBe('w is an array, not an object');
    expect(problemOf(enumOf(['None', 'Interpolate', 'Extrapolate']), 'Interpolat', 'm_Interpolate').problem).toMatch(
      /^m_Interpolate is an Enum, and the string "Interpolat" is none of its members \(did you mean "Interpolate"/,
    );
    expect(problemOf(struct('S', { speed: float() }), { speeed: 1 }, 'stats')).toMatchObject({ problem: 'stats has no field "speeed"', hint: 'Did you mean "speed"? Its fields: speed.' });
    expect(problemOf(float(), 'x'.repeat(100)).problem).toBe(`field is a Float, not the string "${'x'.repeat(40)}…"`);
  });

  it("reads what a file holds as the field's default when it does not fit", () => {
    expect(normalize(float(1), 'x')).toBe(1);
    expect(normalize(vec3(), [1, 2])).toEqual([0, 0, 0]);
    expect(normalize(enumOf(['A', 'B']), 1)).toBe('B');
    expect(normalize(struct('S', { a: int(7) }), undefined)).toEqual({ a: 7 });
  });
});

describe("the Transform's rotation", () => {
  it.each([
    [
      [0, 90, 0],
      [0, 0.707107, 0, 0.707107],
    ],
    [
      [90, 0, 0],
      [0.707107, 0, 0, 0.707107],
    ],
    [
      [0, 0, 90],
      [0, 0, 0.707107, 0.707107],
    ],
  ])("turns Euler angles %j into Unity's quaternion and back", (euler, quaternion) => {
    expect(quaternionOf(euler)).toEqual(quaternion);
    expect(eulerOf(quaternion)).toEqual(euler);
  });

  it('gives back angles from 0 to 360 for any rotation', () => {
    expect(eulerOf(quaternionOf([50, -30, 10]))).toEqual([50, 330, 10]);
    // In gimbal lock (X at 90°) Y and Z turn about one axis: Unity's quatToEuler puts it all in Z, Y 0.
    expect(eulerOf(quaternionOf([90, 20, 0]))).toEqual([90, 0, 340]);
  });

  it("gives the stored angles' quaternion the sign Quaternion.Euler gives the angles as they were given", () => {
    // -90 is stored as 270 (unityEuler below), whose own quaternion is the negated one.
    expect(quaternionOf([0, 270, 0])).toEqual([0, -0.707107, 0, 0.707107]);
    expect(quaternionOf([50, 330, 0])).toEqual(quaternionOf([50, -30, 0]));
    expect(quaternionOf([0, 180, 180])).toEqual([1, 0, 0, 0]);
  });
});

describe('Euler angles as Unity reads them back (localEulerAngles)', () => {
  it.each([
    [
      [0, -90, 0],
      [0, 270, 0],
    ],
    [
      [50, -30, 0],
      [50, 330, 0],
    ],
    [
      [30, 45, 60],
      [30, 45, 60],
    ],
    // X past 90° is read back the other way round.
    [
      [180, 0, 0],
      [0, 180, 180],
    ],
    [
      [400, -400, 720],
      [40, 320, 0],
    ],
    // Gimbal lock: all of the turn about the vertical in Z.
    [
      [90, 20, 0],
      [90, 0, 340],
    ],
    [
      [-90, 20, 10],
      [270, 0, 30],
    ],
    // Just below 0, within 0.0001 rad, an angle stays negative (Quaternion.eulerAngles' Internal_MakePositive).
    [
      [-0.001, 0, 0],
      [-0.001, 0, 0],
    ],
    [
      [0, 0, -1e-9],
      [0, 0, 0],
    ],
  ])('%j reads back as %j', (given, read) => {
    expect(unityEuler(given)).toEqual(read);
    // What is stored reads back as itself: the scene file says what the tools report.
    expect(unityEuler(read)).toEqual(read);
  });

  it('keeps the rotation: the quaternions of the given and the read angles are one rotation', () => {
    for (const given of [
      [10, 20, 30],
      [-45, 200, -170],
      [89.99, 5, 7],
      [270, 90, 45],
    ]) {
      const [a, b] = [quaternionFromEuler(given), quaternionFromEuler(unityEuler(given))];
      expect(Math.abs(a.reduce((sum, v, n) => sum + v * b[n]!, 0)), JSON.stringify(given)).toBeCloseTo(1, 6);
    }
  });
});

describe('path globs', () => {
  it.each([
    ['/Environment/*', '/Environment/Crate', true],
    ['/Environment/*', '/Environment', false],
    ['/Environment/*', '/Environment/Crate/Lid', false],
    ['/Environment/**', '/Environment', true],
    ['/Environment/**', '/Environment/Crate/Lid', true],
    ['**/Cr?te', '/Environment/Crate', true],
    ['**/Cr?te', '/Crate', true],
    ['**/Cr?te', '/Environment/Crates', false],
    ['Player', '/Player', true],
    ['/Player', '/Player (1)', false],
    ['/Player*', '/Player (1)', true],
    ['/*', '/Main Camera', true],
    ['/A.B/(x)', '/A.B/(x)', true],
    ['/A.B', '/AxB', false],
    ['/**/Lid', '/Environment/Crate/Lid', true],
  ])("%s on %s: %s (as the Unity package's HierarchyGlobTests)", (glob, path, matches) => {
    expect(pathGlob(glob)(path)).toBe(matches);
  });
});
