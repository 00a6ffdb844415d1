import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { Commands } from './commands.js';
import { Events } from './events.js';
import { generatedBlockOf, renderProtocolReference } from './protocol-doc.js';

// The compiled test runs from core/dist/protocol/.
const repoRoot = new URL('../../../', import.meta.url);
const specUrl = new URL('../shared/SPEC.md', repoRoot);

/** The lines from `heading` up to the next heading of any level. */
function sectionOf(markdown: string, heading: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  const next = lines.findIndex((line, index) => index > start && line.startsWith('#'));
  return lines.slice(start + 1, next < 0 ? undefined : next);
}

/** The names in backticks in the first column of the first table in `lines`. */
function firstColumnNames(lines: readonly string[]): string[] {
  const start = lines.findIndex((line) => line.startsWith('|'));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
  return lines
    .slice(start, end < 0 ? undefined : end)
    .map((line) => /^\|\s*`([^`]+)`/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('protocol reference', () => {
  const reference = renderProtocolReference();

  it('has a row for every command and every event', () => {
    expect(firstColumnNames(sectionOf(reference, '## Commands'))).to.have.members(Object.keys(Commands));
    expect(firstColumnNames(sectionOf(reference, '## Events'))).to.have.members(Object.keys(Events));
  });

  it('matches the generated part of docs/protocol.md', () => {
    const docUrl = new URL('docs/protocol.md', repoRoot);
    expect(existsSync(docUrl), 'docs/protocol.md does not exist: run `npm run docs`').to.equal(true);
    expect(
      generatedBlockOf(readFileSync(docUrl, 'utf8')),
      'docs/protocol.md is out of date with the protocol schemas: run `npm run docs`',
    ).to.equal(reference);
  });

  describe("against SPEC's tables", () => {
    const skipWithoutSpec = (context: Mocha.Context) => {
      if (existsSync(specUrl)) return;
      // Mocha's skip takes no reason; the title carries it into the report.
      if (context.test) context.test.title += ' (skipped: ../shared/ is absent, so SPEC.md cannot be read)';
      context.skip();
    };

    it('defines every command SPEC lists', function () {
      skipWithoutSpec(this);
      const listed = firstColumnNames(sectionOf(readFileSync(specUrl, 'utf8'), '### Commands (frontend to backend)'));
      expect(listed).to.not.be.empty;
      expect(Object.keys(Commands)).to.include.members(listed);
    });

    it('defines every event SPEC lists', function () {
      skipWithoutSpec(this);
      const listed = firstColumnNames(sectionOf(readFileSync(specUrl, 'utf8'), '## Events'));
      expect(listed).to.not.be.empty;
      expect(Object.keys(Events)).to.include.members(listed);
    });
  });
});
