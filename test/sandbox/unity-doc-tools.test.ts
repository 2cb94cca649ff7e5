/**
 * docs/unity.md's "## The tools" lists every tool the Unity package offers, and no other: each
 * tool of unity/Tests~/fixtures/sandbox-tools.json (which SandboxParityTests holds equal to the
 * Unity package's [TetherTool] methods) names the first cell of a row of one of its tables,
 * the count it states is theirs, and every tool name its comparison with the other bridges
 * gives for Tether is one of them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SNAPSHOT = new URL('../../unity/Tests~/fixtures/sandbox-tools.json', import.meta.url);
const DOC = new URL('../../docs/unity.md', import.meta.url);

const tools = (JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

/** The section from "## The tools" to the next "## " heading. */
function toolsSection(): string {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf('\n## The tools\n');
  expect(start, 'docs/unity.md has a "## The tools" section').toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The cells of each table row of the section (header and separator rows included). */
function rows(section: string): string[][] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

/** The `code` names of a cell. */
const namesIn = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** A tool's name as the tools spell them: snake_case with at least one underscore, or one word the snapshot has. */
const looksLikeTool = (name: string): boolean => /^[a-z]+(_[a-z0-9]+)+$/.test(name) || tools.includes(name);

describe("docs/unity.md's tool list", () => {
  const section = toolsSection();
  const table = rows(section);
  const listed = table.filter((cells) => cells.length === 2).flatMap((cells) => namesIn(cells[0] ?? ''));

  it('lists every tool of the Unity package', () => {
    const missing = tools.filter((tool) => !listed.includes(tool));
    expect(missing, 'tools of unity/Tests~/fixtures/sandbox-tools.json with no row in docs/unity.md "## The tools"').toEqual([]);
  });

  it('lists no tool the package does not have, and each once', () => {
    expect(
      listed.filter((name) => !tools.includes(name)),
      'rows naming tools that do not exist',
    ).toEqual([]);
    expect(
      listed.filter((name, index) => listed.indexOf(name) !== index),
      'tools listed twice',
    ).toEqual([]);
  });

  it('says how many there are', () => {
    expect(section).toContain(`The same ${tools.length} tools as the sandbox editor`);
  });

  it("names only existing tools in Tether's column of the comparison", () => {
    const header = table.find((cells) => cells[1] === 'Tether');
    expect(header, 'a comparison table with a "Tether" column').toBeDefined();
    const comparison = table.filter((cells) => cells.length === header?.length && cells !== header);
    const named = comparison.flatMap((cells) => namesIn(cells[1] ?? '')).filter(looksLikeTool);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !tools.includes(name))).toEqual([]);
  });
});
