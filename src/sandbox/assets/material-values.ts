/**
 * A material property's value as agents write it, checked against the property's type before
 * anything changes, and as the material stores it: Color [r, g, b, a] (or "#RRGGBB",
 * "#RRGGBBAA"; three numbers mean alpha 1), Vector [x, y, z, w] (two to four numbers), Float
 * and Range a number (a Range's within its bounds), Int a whole number, Texture an asset path,
 * {"asset": path} or null. The Unity package checks the same way (MaterialValues.cs).
 */
import { TetherError } from '../../protocol/index.js';
import type { ShaderProperty } from './shaders.js';

export type MaterialValue = number | number[] | { asset: string } | null;

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

function wrong(tool: string, property: string, problem: string): never {
  const field = `properties.${property}`;
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}.`, { tool, field, problem });
}

const shown = (value: unknown): string => JSON.stringify(value)?.slice(0, 80) ?? String(value);

function numbers(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (value as number[]) : undefined;
}

/** "#RRGGBB" or "#RRGGBBAA" as [r, g, b, a] from 0 to 1. */
function hexColor(value: unknown): number[] | undefined {
  if (typeof value !== 'string' || !/^#([0-9a-f]{6}|[0-9a-f]{8})$/i.test(value)) return undefined;
  const bytes = (value.slice(1).match(/../g) ?? []).map((b) => parseInt(b, 16) / 255);
  return bytes.length === 3 ? [...bytes, 1] : bytes;
}

/** The stored value of `value` for `property`, or INVALID_ARGUMENTS saying what the property takes. */
export function materialValue(property: ShaderProperty, value: unknown, tool: string): MaterialValue {
  const name = property.name;
  switch (property.type) {
    case 'Color': {
      const given = hexColor(value) ?? numbers(value);
      if (!given || given.length < 3 || given.length > 4) wrong(tool, name, `a Color takes [r, g, b, a] (three numbers mean alpha 1) or "#RRGGBB", not ${shown(value)}`);
      return given.length === 3 ? [...given, 1] : given;
    }
    case 'Vector': {
      const given = numbers(value);
      if (!given || given.length < 2 || given.length > 4) wrong(tool, name, `a Vector takes [x, y, z, w] (two to four numbers), not ${shown(value)}`);
      return [...given, 0, 0].slice(0, 4);
    }
    case 'Float':
    case 'Range': {
      if (typeof value !== 'number' || !Number.isFinite(value)) wrong(tool, name, `a ${property.type} takes a number, not ${shown(value)}`);
      const [min, max] = property.range ?? [-Infinity, Infinity];
      if (value < min || value > max) wrong(tool, name, `${value} is outside its range, ${min} to ${max}`);
      return value;
    }
    case 'Int': {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < INT_MIN || value > INT_MAX) wrong(tool, name, `an Int takes a whole number, not ${shown(value)}`);
      return value;
    }
    case 'Texture': {
      if (value === null) return null;
      const path = typeof value === 'string' ? value : typeof value === 'object' && typeof (value as { asset?: unknown }).asset === 'string' ? (value as { asset: string }).asset : undefined;
      if (path === undefined) wrong(tool, name, `a Texture takes a texture's asset path ("Assets/Textures/Wood.png"), {"asset": path} or null, not ${shown(value)}`);
      return { asset: path };
    }
  }
}
