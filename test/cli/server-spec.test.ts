/**
 * httpSpec: what `tether setup --http` writes. The project goes in X-Tether-Project
 * percent-encoded, so that any client can send it whatever the path holds: raw, Node's fetch
 * refuses `C:\Users\田中\Game` ("Cannot convert argument to a ByteString").
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVE_URL, httpSpec } from '../../src/cli/clients/server-spec.js';

describe('httpSpec', () => {
  it('puts the project in X-Tether-Project percent-encoded, which any HTTP client can send', () => {
    const spec = httpSpec('C:\\Users\\田中\\Game', DEFAULT_SERVE_URL);
    expect(spec).toEqual({ transport: 'http', url: DEFAULT_SERVE_URL, headers: { 'X-Tether-Project': 'C%3A%5CUsers%5C%E7%94%B0%E4%B8%AD%5CGame' } });
    if (spec.transport !== 'http') return;
    expect(() => new Headers(spec.headers)).not.toThrow();
    expect(httpSpec('/Users/Jose\u0301/My Game', DEFAULT_SERVE_URL)).toMatchObject({ headers: { 'X-Tether-Project': '%2FUsers%2FJose%CC%81%2FMy%20Game' } });
  });

  it('leaves a printable ASCII path as it is, as configurations written before have it', () => {
    expect(httpSpec('C:\\work\\My Game 50%', DEFAULT_SERVE_URL)).toMatchObject({ headers: { 'X-Tether-Project': 'C:\\work\\My Game 50%' } });
    expect(httpSpec('/work/Game', DEFAULT_SERVE_URL)).toMatchObject({ headers: { 'X-Tether-Project': '/work/Game' } });
  });
});
