import { describe, expect, it } from 'vitest';
import * as host from '../../src/host/index.js';

describe('tether-mcp/host public API', () => {
  it('exports exactly what docs/host-sdk.md documents', () => {
    // Changing this list is changing the SDK's public surface: update docs/host-sdk.md too.
    expect(Object.keys(host).sort()).toEqual(['CallJournal', 'FileJournalStore', 'Host', 'MainThreadExecutor', 'MemoryJournalStore', 'registerRemoteTool', 'registerTool', 'toToolResult']);
  });
});
