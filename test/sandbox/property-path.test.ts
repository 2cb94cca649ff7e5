/** Property paths (src/sandbox/property-path.ts): the same cases as the Unity package's PropertyPathsTests. */
import { describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/index.js';
import { parsePropertyPath, toShortPath, toUnityPath } from '../../src/sandbox/property-path.js';

describe('property paths', () => {
  it.each([
    ['m_Mass', 'm_Mass', 'm_Mass'],
    ['stats.maxHealth', 'stats.maxHealth', 'stats.maxHealth'],
    ['waypoints[2].position', 'waypoints.Array.data[2].position', 'waypoints[2].position'],
    ['waypoints.Array.data[2].position', 'waypoints.Array.data[2].position', 'waypoints[2].position'],
    ['grid[1][3]', 'grid.Array.data[1].Array.data[3]', 'grid[1][3]'],
    ['m_Materials.Array.data[0]', 'm_Materials.Array.data[0]', 'm_Materials[0]'],
  ])('reads %s in either spelling', (path, unity, short) => {
    const segments = parsePropertyPath(path, 'set_serialized_property');
    expect(toUnityPath(segments)).toBe(unity);
    expect(toShortPath(segments)).toBe(short);
  });

  it('tells names from indices', () => {
    expect(parsePropertyPath('waypoints[12].x', 't')).toEqual([{ name: 'waypoints' }, { index: 12 }, { name: 'x' }]);
  });

  it.each([
    ['', 'empty'],
    ['a..b', 'empty name'],
    ['.a', 'empty name'],
    ['a.', 'ends with'],
    ['a[1', 'without its'],
    ['a[-1]', 'whole number'],
    ['a[x]', 'whole number'],
    ['[0]', 'starts with an index'],
    ['a[0]b', 'after an index'],
  ])('refuses %j, saying what is wrong', (path, problem) => {
    let caught: unknown;
    try {
      parsePropertyPath(path, 'get_serialized_properties', 'path');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TetherError);
    const error = caught as TetherError;
    expect(error.code).toBe('INVALID_ARGUMENTS');
    expect(String(error.data.problem)).toContain(problem);
    expect(error.message.startsWith('Invalid arguments for get_serialized_properties: path: ')).toBe(true);
  });
});
