/**
 * tether-mcp/protocol: the portable core of the host protocol. It imports nothing from
 * Node, so a host or client in any JavaScript runtime can use it as it is.
 */
export * from './errors.js';
export * from './error-registry.js';
export * from './messages.js';
export * from './limits.js';
export * from './frame-decoder.js';
export * from './frame-encoder.js';
export * from './transport.js';
export * from './connection.js';
export * from './lazy-abort.js';
export * from './methods.js';
export * from './method-table.js';
export * from './method-requests.js';
export * from './canonical-json.js';
export * from './json-depth.js';
export * from './lifted-strings.js';
