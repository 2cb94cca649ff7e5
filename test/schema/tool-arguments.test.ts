/**
 * Tool argument validation as an agent meets it: both schema kinds (zod for hosts written in
 * TypeScript, JSON Schema for everything that crosses the wire) name the field, refuse an
 * argument the tool does not take with the names it does, and list the allowed values.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { toInputSchema } from '../../src/host/tools.js';
import type { TetherError } from '../../src/protocol/index.js';
import { compileToolSchema } from '../../src/schema/json-schema.js';
import { argumentValidator, strictArguments } from '../../src/schema/tool-arguments.js';

function refusal(validate: () => unknown): TetherError {
  try {
    validate();
  } catch (error) {
    return error as TetherError;
  }
  throw new Error('the arguments were accepted');
}

const move = z.object({ path: z.string(), position: z.array(z.number()), options: z.object({ relative: z.boolean() }).optional() });

describe('tool arguments', () => {
  for (const [kind, schema] of [
    ['zod', strictArguments(move)],
    ['JSON Schema', toInputSchema(move)],
  ] as const) {
    it(`refuses an argument the tool does not take, with the closest it does (${kind})`, () => {
      const validate = argumentValidator('move', schema);
      // Misspelled, a required argument is also missing: the refusal names the misspelling.
      const misspelled = refusal(() => validate({ path: '/B', postion: [1] }));
      expect(misspelled).toMatchObject({ code: 'INVALID_ARGUMENTS', data: { tool: 'move', field: 'postion' } });
      expect(misspelled.data.suggestions).toEqual(['position', 'options']);
      expect(misspelled.message).toBe(
        'Invalid arguments for tool "move": "postion" is not an argument of this tool (did you mean "position", "options"?). Fix the field and call again; tools/list has the input schema.',
      );
      const stranger = refusal(() => validate({ path: '/B', position: [], colour: 'red' }));
      expect(stranger.message).toContain('"colour" is not an argument of this tool (the arguments here are "path", "position", "options")');
      expect(refusal(() => validate({ position: [] })).message).toContain('"path" is required but missing');
      expect(validate({ path: '/B', position: [1, 2] })).toEqual({ path: '/B', position: [1, 2] });
    });
  }

  it('leaves nested objects and objects that chose to take more keys as they are', () => {
    expect(argumentValidator('move', strictArguments(move))({ path: '/B', position: [], options: { relative: true, extra: 1 } })).toEqual({
      path: '/B',
      position: [],
      options: { relative: true },
    });
    const loose = z.looseObject({ path: z.string() });
    expect(strictArguments(loose)).toBe(loose);
    expect(argumentValidator('loose', toInputSchema(loose))({ path: '/B', extra: 1 })).toEqual({ path: '/B', extra: 1 });
    const record = z.record(z.string(), z.unknown());
    expect(strictArguments(record)).toBe(record);
  });

  it('names the unknown key inside a nested object that refuses extra keys, with its own names', () => {
    const nested = { type: 'object', properties: { options: { type: 'object', properties: { relative: { type: 'boolean' } }, additionalProperties: false } } };
    const refused = refusal(() => argumentValidator('move', nested)({ options: { relativ: true } }));
    expect(refused).toMatchObject({ data: { field: 'options.relativ', suggestions: ['relative'] } });
    const zodNested = z.strictObject({ options: z.strictObject({ relative: z.boolean() }).optional() });
    expect(refusal(() => argumentValidator('move', zodNested)({ options: { relativ: true } }))).toMatchObject({ data: { field: 'options.relativ', suggestions: ['relative'] } });
  });

  it('finds the names an unknown key was meant among, inside arrays and wrappers, and guesses none where it cannot tell', () => {
    const items = z.strictObject({ items: z.array(z.strictObject({ name: z.string() })).optional() });
    expect(refusal(() => argumentValidator('spawn', items)({ items: [{ nme: 'a' }] }))).toMatchObject({ data: { field: 'items.0.nme', suggestions: ['name'] } });
    const lazy = z.strictObject({ node: z.lazy(() => z.strictObject({ label: z.string() })) });
    expect(refusal(() => argumentValidator('tree', lazy)({ node: { lable: 'a' } }))).toMatchObject({ data: { field: 'node.lable', suggestions: ['label'] } });
    // A schema that takes extra keys: a misspelled required argument is simply missing.
    const permissive = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    expect(refusal(() => argumentValidator('move', permissive)({ pth: '/x' })).message).toContain('"path" is required but missing');
  });

  it('reads zod/mini schemas as it reads classic ones: strict at the top, with the names a misspelling was meant among', () => {
    const mini = zm.object({ path: zm.string(), options: zm.optional(zm.strictObject({ relative: zm.boolean() })) });
    const strict = strictArguments(mini);
    expect(toInputSchema(mini)).toEqual({
      type: 'object',
      properties: { path: { type: 'string' }, options: { type: 'object', properties: { relative: { type: 'boolean' } }, required: ['relative'], additionalProperties: false } },
      required: ['path'],
      additionalProperties: false,
    });
    const validate = argumentValidator('move', strict);
    expect(refusal(() => validate({ pth: '/B' }))).toMatchObject({ data: { field: 'pth', suggestions: ['path'] } });
    expect(refusal(() => validate({ path: '/B', options: { relativ: true } }))).toMatchObject({ data: { field: 'options.relativ', suggestions: ['relative'] } });
    expect(refusal(() => validate({ path: 3 })).message).toContain('"path"');
    expect(validate({ path: '/B', options: { relative: true } })).toEqual({ path: '/B', options: { relative: true } });
  });

  it('compiles a JSON Schema once, however often a tool with it is registered (at every reload)', () => {
    const schema = () => ({ type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false });
    expect(compileToolSchema('move', 'input', schema())).toBe(compileToolSchema('move', 'input', schema()));
  });

  it('lists the allowed values of an enum', () => {
    const refused = refusal(() => argumentValidator('play_mode', toInputSchema(z.object({ action: z.enum(['enter', 'exit']) })))({ action: 'run' }));
    expect(refused).toMatchObject({ data: { field: 'action' } });
    expect(refused.message).toContain('"action" must be one of "enter", "exit"');
  });
});
