/**
 * tether-mcp/host: the SDK an app embeds to become a Tether host. See docs/host-sdk.md.
 */
export { Host, type HostOptions, type CloseOptions } from './host.js';
export { registerTool, registerRemoteTool, toToolResult, type ToolDefinition, type ToolContext, type ToolReturn, type RegisteredTool, type JsonSchema } from './tools.js';
export type { ResourceDefinition, ResourceTemplateDefinition, PromptDefinition } from './catalog.js';
export { CallJournal } from './call-journal.js';
export { FileJournalStore } from './file-journal-store.js';
export { MemoryJournalStore, type JournalStore } from './journal-store.js';
export type { JournalEntry } from './journal-entry.js';
export { MainThreadExecutor } from './executor.js';
