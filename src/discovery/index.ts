/** tether-mcp/discovery: where hosts announce themselves and fronts find them. */
export * from './tether-home.js';
export * from './secure-file.js';
export * from './host-record.js';
