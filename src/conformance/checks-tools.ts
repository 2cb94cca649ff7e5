/** Tools: the shape of tools/list, and the typed errors for unknown tools and invalid arguments. */
import { METHODS } from '../protocol/index.js';
import { assert, assertEqual, expectRejection, isRecord, show } from './assertions.js';
import { KIT, uniqueId } from './kit.js';
import type { Check } from './types.js';

export const toolChecks: readonly Check[] = [
  {
    id: 'tools.list',
    requirement: 'TL-1',
    title: 'tools/list returns descriptors with name, description, inputSchema, annotations and execution',
    async run({ connect }) {
      const session = await connect();
      const answer = await session.request(METHODS.toolsList);
      assert(isRecord(answer) && Array.isArray(answer.tools), `tools/list must answer { tools: [...] }, got ${show(answer)}`);
      const names = new Set<string>();
      for (const tool of answer.tools as unknown[]) {
        assert(isRecord(tool) && typeof tool.name === 'string' && tool.name.length > 0, `a descriptor has no name: ${show(tool)}`);
        const where = `tool "${tool.name}"`;
        assert(!names.has(tool.name), `${where} is listed twice`);
        names.add(tool.name);
        assert(typeof tool.description === 'string', `${where}: description must be a string, got ${show(tool.description)}`);
        // Checked field by field: the protocol's zod schema would fill in defaults and hide a missing one.
        assert(isRecord(tool.inputSchema) && tool.inputSchema.type === 'object', `${where}: inputSchema must be a JSON Schema object with type "object", got ${show(tool.inputSchema)}`);
        // SHOULD be sent (protocol.md §7.2; a client applies the defaults when they are not), and objects when they are.
        assert(tool.annotations === undefined || isRecord(tool.annotations), `${where}: annotations must be an object when sent, got ${show(tool.annotations)}`);
        assert(tool.execution === undefined || isRecord(tool.execution), `${where}: execution must be an object when sent, got ${show(tool.execution)}`);
      }
    },
  },
  {
    id: 'tools.unknown-tool',
    requirement: 'TL-2',
    title: 'a call to an unknown tool fails with UNKNOWN_TOOL',
    async run({ connect }) {
      const session = await connect();
      const tool = `tether_conformance_no_such_tool_${Date.now()}`;
      await expectRejection(session.start({ callId: uniqueId('unknown-tool'), tool, arguments: {} }), 'UNKNOWN_TOOL', `calling "${tool}"`);
    },
  },
  {
    id: 'tools.invalid-arguments',
    requirement: 'TL-3',
    title: 'invalid arguments fail with INVALID_ARGUMENTS naming data.field',
    needs: [KIT.count],
    async run({ connect }) {
      const session = await connect();
      const wrongType = await expectRejection(
        session.start({ callId: uniqueId('invalid-args'), tool: KIT.count, arguments: { key: 42 } }),
        'INVALID_ARGUMENTS',
        `${KIT.count} with a number for "key"`,
      );
      assertEqual(wrongType.data.field, 'key', `data.field for a wrongly typed "key"`);
      const missing = await expectRejection(session.start({ callId: uniqueId('invalid-args'), tool: KIT.count, arguments: {} }), 'INVALID_ARGUMENTS', `${KIT.count} without "key"`);
      assertEqual(missing.data.field, 'key', `data.field for a missing "key"`);
    },
  },
];
