/**
 * The tools the official MCP conformance suite (@modelcontextprotocol/conformance, `server`
 * scenarios) calls, exposed only with --conformance-fixtures. They run on the sandbox's main
 * thread like every other editor tool, so each scenario goes through the whole of Tether:
 * MCP front, host link, host protocol, the host's executor and the main-thread bridge.
 * Names, arguments and outputs follow the suite's scenario descriptions.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { Content, ToolResult } from '../../protocol/index.js';
import { TEST_PNG_BASE64, TEST_WAV_BASE64, WATCHED_URI, type ConformanceState } from '../conformance-catalog.js';
import { defineTool, type SandboxTool } from './tool.js';

const NO_ARGS = z.object({});
/** Fixtures change nothing in the editor: any number of them may run, and re-run, safely. */
const PURE = { readOnlyHint: true, idempotentHint: true } as const;
/** Fixtures that ask the client something: read-only, but every call asks again. */
const ASKS = { readOnlyHint: true, idempotentHint: false } as const;

/** SEP-1613: an input schema that uses JSON Schema 2020-12 keywords, advertised as it is. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
};

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** The protocol's Content type has no audio member yet; the wire carries any content item. */
function audio(data: string, mimeType: string): Content {
  return { type: 'audio', data, mimeType } as unknown as Content;
}

function elicited(result: { action: string; content?: unknown }): string {
  return `action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** The text of a sampling/createMessage result (content is one block, or an array of blocks). */
function sampledText(result: unknown): string {
  const content = (result as { content?: unknown } | undefined)?.content;
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.filter((b): b is { type: 'text'; text: string } => typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text');
  return texts.map((b) => b.text).join('\n') || '(no text in the response)';
}

export function conformanceFixtures(state: ConformanceState): SandboxTool[] {
  return [
    defineTool({
      name: 'test_simple_text',
      description: 'Conformance fixture: returns one text block.',
      input: NO_ARGS,
      annotations: PURE,
      run: () => text('This is a simple text response for testing.'),
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Conformance fixture: returns an image (a 1x1 red PNG).',
      input: NO_ARGS,
      annotations: PURE,
      run: () => ({ content: [{ type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' }] }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Conformance fixture: returns audio (a one-sample WAV).',
      input: NO_ARGS,
      annotations: PURE,
      run: () => ({ content: [audio(TEST_WAV_BASE64, 'audio/wav')] }),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Conformance fixture: returns an embedded text resource.',
      input: NO_ARGS,
      annotations: PURE,
      run: () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Conformance fixture: returns text, an image and an embedded resource.',
      input: NO_ARGS,
      annotations: PURE,
      run: () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
        ],
      }),
    }),
    defineTool({
      name: 'test_tool_with_logging',
      description: 'Conformance fixture: sends three info log messages, 50 ms apart.',
      input: NO_ARGS,
      annotations: PURE,
      run: async (_args, context) => {
        context.log('info', 'Tool execution started');
        await delay(50);
        context.log('info', 'Tool processing data');
        await delay(50);
        context.log('info', 'Tool execution completed');
        return text('Tool with logging executed successfully');
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Conformance fixture: reports progress 0, 50 and 100 of 100, 50 ms apart.',
      input: NO_ARGS,
      annotations: PURE,
      run: async (_args, context) => {
        for (const progress of [0, 50, 100]) {
          if (progress > 0) await delay(50);
          context.progress({ progress, total: 100, message: `Completed step ${progress} of 100` });
        }
        return text('Tool with progress executed successfully');
      },
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Conformance fixture: always fails.',
      input: NO_ARGS,
      annotations: PURE,
      run: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'test_sampling',
      description: 'Conformance fixture: asks the client for an LLM completion of `prompt` (sampling/createMessage).',
      input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
      annotations: ASKS,
      run: async ({ prompt }, context) => {
        const result = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
        return text(`LLM response: ${sampledText(result)}`);
      },
    }),
    defineTool({
      name: 'test_elicitation',
      description: 'Conformance fixture: asks the user for a username and an email (elicitation/create).',
      input: z.object({ message: z.string().describe('The message to show the user') }),
      annotations: ASKS,
      run: async ({ message }, context) => {
        const result = await context.elicit(message, {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        });
        return text(`User response: ${elicited(result)}`);
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Conformance fixture: asks the user with a form whose fields have default values (SEP-1034).',
      input: NO_ARGS,
      annotations: ASKS,
      run: async (_args, context) => {
        const result = await context.elicit('Please review and update the form fields with defaults', {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        });
        return text(`Elicitation completed: ${elicited(result)}`);
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Conformance fixture: asks the user with the five enum field forms of SEP-1330.',
      input: NO_ARGS,
      annotations: ASKS,
      run: async (_args, context) => {
        const result = await context.elicit('Please select options from the enum fields', {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        });
        return text(`Elicitation completed: ${elicited(result)}`);
      },
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Conformance fixture: a tool whose input schema uses JSON Schema 2020-12 keywords ($schema, $defs, $ref).',
      input: z
        .object({
          name: z.string().optional(),
          address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
        })
        .strict(),
      inputJsonSchema: JSON_SCHEMA_2020_12,
      annotations: PURE,
      run: (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    }),
    defineTool({
      name: 'test_reconnection',
      description:
        'Conformance fixture (SEP-1699): answers after 100 ms. The reference server closes the SSE stream mid-call; an editor cannot reach the HTTP stream, so the answer comes on the stream the call was made on.',
      input: NO_ARGS,
      annotations: PURE,
      run: async () => {
        await delay(100);
        return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
      },
    }),
    defineTool({
      name: 'test_update_watched_resource',
      description: `Conformance fixture: changes ${WATCHED_URI} and notifies its subscribers (notifications/resources/updated).`,
      input: NO_ARGS,
      annotations: { readOnlyHint: false, idempotentHint: false },
      execution: { duplicates: 'allow' },
      run: (_args, context) => {
        state.watchedVersion++;
        context.resourceUpdated(WATCHED_URI);
        return { uri: WATCHED_URI, version: state.watchedVersion };
      },
    }),
  ];
}
