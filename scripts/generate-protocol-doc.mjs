// Writes the protocol reference rendered from the schemas into docs/protocol.md, between its marker lines.
// `--check` writes nothing and exits 1 when the file's generated part is out of date.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const docPath = fileURLToPath(new URL('../docs/protocol.md', import.meta.url));
const docName = 'docs/protocol.md';
const checkOnly = process.argv.includes('--check');

const { GENERATED_BEGIN, GENERATED_END, generatedBlockOf, renderProtocolReference, withGeneratedBlock } =
  await import('../core/dist/protocol/protocol-doc.js').catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    fail('core/dist/protocol/protocol-doc.js is missing: build core first (`npm run build`).');
  });

const newDocument = `# Keyframe protocol reference

The tables between the markers are generated from the TypeBox schemas in \`core/src/protocol/\` by
\`npm run docs\`: change the schemas, not the tables. Text outside the markers is kept as written.

${GENERATED_BEGIN}
${GENERATED_END}
`;

function fail(message) {
  console.error(message);
  process.exit(1);
}

const reference = renderProtocolReference();
const document = existsSync(docPath) ? readFileSync(docPath, 'utf8') : undefined;

if (checkOnly) {
  if (document === undefined) fail(`${docName} does not exist: run \`npm run docs\` to generate it.`);
  const generated = generatedBlockOf(document);
  if (generated === undefined) fail(`${docName} has no \`${GENERATED_BEGIN}\` ... \`${GENERATED_END}\` marker lines.`);
  if (generated !== reference) {
    fail(`${docName} is out of date with the protocol schemas in core/src/protocol/: run \`npm run docs\` and commit the result.`);
  }
  console.log(`${docName} is up to date.`);
} else {
  const updated = withGeneratedBlock(document ?? newDocument, reference);
  if (updated === undefined) {
    fail(`${docName} has no \`${GENERATED_BEGIN}\` ... \`${GENERATED_END}\` marker lines: add them where the reference belongs.`);
  }
  if (updated === document) {
    console.log(`${docName} is up to date.`);
  } else {
    mkdirSync(dirname(docPath), { recursive: true });
    writeFileSync(docPath, updated);
    console.log(`Wrote ${docName}.`);
  }
}
