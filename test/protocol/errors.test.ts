import { describe, expect, it } from 'vitest';
import { ERROR_CODES, TetherError, isTetherError, type ErrorCode, type WireError } from '../../src/protocol/errors.js';

const ALL_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

describe('ERROR_CODES', () => {
  it('lists the codes the protocol relies on', () => {
    expect(ALL_CODES.length).toBeGreaterThanOrEqual(20);
    for (const code of ['PARSE_ERROR', 'INVALID_REQUEST', 'METHOD_NOT_FOUND', 'FRAME_TOO_LARGE', 'FRAME_TIMEOUT', 'CONNECTION_CLOSED', 'REQUEST_TIMEOUT', 'CANCELLED'])
      expect(ALL_CODES).toContain(code);
  });

  it('keeps JSON-RPC 2.0 standard numbers for the standard faults', () => {
    expect(ERROR_CODES).toMatchObject({
      PARSE_ERROR: -32700,
      INVALID_REQUEST: -32600,
      METHOD_NOT_FOUND: -32601,
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
    });
  });

  it('gives every code a distinct numeric code', () => {
    const numbers = Object.values(ERROR_CODES);
    const duplicates = numbers.filter((n, i) => numbers.indexOf(n) !== i);
    expect(duplicates).toEqual([]);
    expect(new Set(numbers).size).toBe(ALL_CODES.length);
  });

  it('keeps every numeric code an integer inside the range JSON-RPC reserves for errors', () => {
    for (const [code, rpc] of Object.entries(ERROR_CODES)) {
      expect(Number.isInteger(rpc), code).toBe(true);
      expect(rpc, code).toBeGreaterThanOrEqual(-32768);
      expect(rpc, code).toBeLessThanOrEqual(-32000);
    }
  });
});

describe('TetherError wire round trip', () => {
  it.each(ALL_CODES)('%s survives toWire -> JSON -> fromWire', (code) => {
    const original = new TetherError(code, `Something about ${code}.`, { detail: 'x', n: 3, nested: { ok: true } });
    const wire = original.toWire();
    expect(wire).toEqual({
      code: ERROR_CODES[code],
      message: `Something about ${code}.`,
      data: { detail: 'x', n: 3, nested: { ok: true }, code },
    });
    const back = TetherError.fromWire(JSON.parse(JSON.stringify(wire)) as WireError);
    expect(back).toBeInstanceOf(TetherError);
    expect(back).toBeInstanceOf(Error);
    expect(back.name).toBe('TetherError');
    expect(back.code).toBe(code);
    expect(back.rpcCode).toBe(ERROR_CODES[code]);
    expect(back.message).toBe(original.message);
    expect(back.data).toEqual(original.data);
    expect(back.toWire()).toEqual(wire);
  });

  it.each(ALL_CODES)('%s is recovered from its numeric code alone (a peer that sends no data)', (code) => {
    const back = TetherError.fromWire({ code: ERROR_CODES[code], message: 'm' });
    expect(back.code).toBe(code);
    expect(back.data).toEqual({});
  });

  it('toWire does not share or mutate the data object', () => {
    const data = { a: 1 };
    const error = new TetherError('NOT_FOUND', 'gone', data);
    error.toWire().data!.a = 2;
    expect(data).toEqual({ a: 1 });
    expect(error.data).toEqual({ a: 1 });
  });

  it('toJSON gives the stable string code, message and data', () => {
    const error = new TetherError('UNKNOWN_CALL', 'No call c-1.', { callId: 'c-1' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'UNKNOWN_CALL', message: 'No call c-1.', data: { callId: 'c-1' } });
  });
});

describe('TetherError.fromWire with unknown codes', () => {
  it('turns an unknown numeric code into INTERNAL_ERROR and keeps the original number', () => {
    const back = TetherError.fromWire({ code: -1234, message: 'odd peer' });
    expect(back.code).toBe('INTERNAL_ERROR');
    expect(back.rpcCode).toBe(-32603);
    expect(back.message).toBe('odd peer');
    expect(back.data).toEqual({ rpcCode: -1234 });
  });

  it('keeps the other data of an error with an unknown numeric code', () => {
    const back = TetherError.fromWire({ code: 42, message: 'm', data: { where: 'here' } });
    expect(back.code).toBe('INTERNAL_ERROR');
    expect(back.data).toEqual({ where: 'here', rpcCode: 42 });
  });

  it('prefers a known string code over the number', () => {
    const back = TetherError.fromWire({ code: -1, message: 'm', data: { code: 'CANCELLED' } });
    expect(back.code).toBe('CANCELLED');
    expect(back.data).toEqual({ rpcCode: -1 });
  });

  it('falls back to the number when the string code is unknown', () => {
    const back = TetherError.fromWire({ code: -32601, message: 'm', data: { code: 'SOMETHING_NEW' } });
    expect(back.code).toBe('METHOD_NOT_FOUND');
  });

  it('falls back to INTERNAL_ERROR when the string code is not a string', () => {
    const back = TetherError.fromWire({ code: 7, message: 'm', data: { code: 12 as unknown as string } });
    expect(back.code).toBe('INTERNAL_ERROR');
  });

  // Regression: fromWire checks `named in ERROR_CODES`, which also matches inherited Object.prototype
  // members, so a peer-sent data.code of "constructor" (or "toString", "__proto__", ...) becomes
  // the error's code; its rpcCode is then a function and toWire() loses the numeric code.
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])('treats an inherited property name "%s" as an unknown string code', (named) => {
    const back = TetherError.fromWire({ code: -32603, message: 'm', data: { code: named } });
    expect(ALL_CODES).toContain(back.code);
    expect(back.code).toBe('INTERNAL_ERROR');
    expect(typeof back.rpcCode).toBe('number');
    expect(JSON.parse(JSON.stringify(back.toWire()))).toMatchObject({ code: -32603 });
  });
});

describe('TetherError.from and isTetherError', () => {
  it('returns a TetherError unchanged', () => {
    const error = new TetherError('EVICTED', 'bye');
    expect(TetherError.from(error)).toBe(error);
    expect(TetherError.from(error, 'CANCELLED')).toBe(error);
  });

  it('wraps an Error or any other value, with INTERNAL_ERROR by default or the given code', () => {
    expect(TetherError.from(new Error('disk full'))).toMatchObject({ code: 'INTERNAL_ERROR', message: 'disk full' });
    expect(TetherError.from('just a string', 'CANCELLED')).toMatchObject({ code: 'CANCELLED', message: 'just a string' });
    expect(TetherError.from(undefined)).toMatchObject({ code: 'INTERNAL_ERROR', message: 'undefined' });
  });

  it('isTetherError matches the class and, when given, the code', () => {
    const error = new TetherError('NOT_FOUND', 'x');
    expect(isTetherError(error)).toBe(true);
    expect(isTetherError(error, 'NOT_FOUND')).toBe(true);
    expect(isTetherError(error, 'CANCELLED')).toBe(false);
    expect(isTetherError(new Error('x'))).toBe(false);
    expect(isTetherError({ code: 'NOT_FOUND', message: 'x' })).toBe(false);
  });
});
