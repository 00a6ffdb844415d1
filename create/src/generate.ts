// Writes a new integration package: templates/common and the feed kind's pieces, with placeholders
// (__KEY__, __CLASS_NAME__, …) filled in, plus the package.json and tsconfig.json of the layout.
// Everything is written beside the target first and moved into place at the end, so a failure
// never leaves half a package behind.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEED_TEMPLATES } from './feed-kinds.js';
import { KIT_PACKAGE, type Layout } from './layouts.js';
import { packageManifest } from './package-manifest.js';
import { UsageError, type Project } from './project.js';

const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url));
/** Template files copied byte for byte (no placeholders). */
const BINARY = /\.png$/;

type Values = Readonly<Record<string, string>>;

function substitute(text: string, values: Values, file: string): string {
  return text.replace(/__([A-Z][A-Z_]*[A-Z])__/g, (match, placeholder: string) => {
    const value = values[placeholder];
    if (value === undefined) throw new Error(`${file}: unknown placeholder ${match}`);
    return value;
  });
}

/** A template's name in the package: placeholders filled, `.template` dropped, a leading `_name` made `.name` (npm pack drops `.gitignore`). */
function targetName(name: string, values: Values, file: string): string {
  return substitute(name.replace(/\.template$/, '').replace(/^_(?=[a-z])/, '.'), values, file);
}

/** Copies the template folder `source` into `target`; returns the files written, relative to `target`. */
async function copyTemplate(source: string, target: string, values: Values): Promise<string[]> {
  const written: string[] = [];
  for (const entry of await readdir(source, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const from = path.join(entry.parentPath, entry.name);
    const relativeFolder = path.relative(source, entry.parentPath);
    const to = path.join(target, substitute(relativeFolder, values, from), targetName(entry.name, values, from));
    await mkdir(path.dirname(to), { recursive: true });
    if (BINARY.test(entry.name)) {
      await writeFile(to, await readFile(from));
    } else {
      const template = await readFile(from, 'utf8');
      const text = substitute(template, values, from);
      // A value that breaks a JSON file must fail here, not in the author's build (sample data may be broken on purpose).
      if (/\.json$/.test(to) && text !== template) JSON.parse(text);
      await writeFile(to, text);
    }
    written.push(path.relative(target, to).split(path.sep).join('/'));
  }
  return written;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function readmePart(name: string, values: Values): Promise<string> {
  const file = path.join(TEMPLATES, 'readme', `${name}.md`);
  return substitute((await readFile(file, 'utf8')).trimEnd(), values, file);
}

async function templateValues(project: Project, layout: Layout): Promise<Values> {
  const values = {
    NAME: project.slug,
    KEY: project.key,
    DISPLAY_NAME: project.displayName,
    CLASS_NAME: project.className,
    PACKAGE_NAME: project.packageName,
    PORT: String(project.port ?? ''),
    KIT_PACKAGE,
  };
  return {
    ...values,
    FEED_ABOUT: await readmePart(project.feed, values),
    BUILD_AND_TEST: await readmePart(layout.name, values),
  };
}

/** Refuses a folder that holds anything: nothing of the author's may be overwritten. */
async function refuseNonEmpty(folder: string): Promise<void> {
  if (!existsSync(folder)) return;
  const entries = await readdir(folder).catch(() => {
    throw new UsageError(`${folder} exists and is not a folder`);
  });
  if (entries.length > 0) throw new UsageError(`${folder} already exists and is not empty: choose another folder or empty it first`);
}

/** Moves what `staging` holds to `target`: a rename, or entry by entry into an empty folder that exists. */
async function moveIntoPlace(staging: string, target: string): Promise<void> {
  if (!existsSync(target)) {
    await rename(staging, target);
    return;
  }
  for (const entry of await readdir(staging)) await rename(path.join(staging, entry), path.join(target, entry));
  await rmdir(staging);
}

/** Writes the package for `project`; returns its files, relative to its folder, sorted. */
export async function generateIntegration(project: Project, layout: Layout): Promise<string[]> {
  await refuseNonEmpty(project.folder);
  const values = await templateValues(project, layout);
  const parent = path.dirname(project.folder);
  await mkdir(parent, { recursive: true });
  const staging = path.join(parent, `.${path.basename(project.folder)}.partial-${process.pid}`);
  try {
    const written: string[] = [];
    for (const piece of ['common', ...FEED_TEMPLATES[project.feed].pieces]) {
      written.push(...(await copyTemplate(path.join(TEMPLATES, piece), staging, values)));
    }
    await writeFile(path.join(staging, 'package.json'), json(packageManifest(project, layout)));
    await writeFile(path.join(staging, 'tsconfig.json'), json(layout.tsconfig(project.folder)));
    written.push('package.json', 'tsconfig.json');
    await moveIntoPlace(staging, project.folder);
    return [...new Set(written)].sort();
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
