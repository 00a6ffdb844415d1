// The repository's workspaces as npm packs them for a third party: the tarballs themselves
// (`packWorkspaces`), or what they would hold without writing them (`packedContents`).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
// The compiled helper runs from test/dist/kit/.
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface PackedWorkspace {
  /** The workspace folder as given, e.g. `core`. */
  workspace: string;
  name: string;
  version: string;
  /** The tarball's file name (in the pack destination). */
  filename: string;
  /** Paths inside the package, e.g. `dist/index.js`. */
  files: string[];
}

interface PackReport {
  name: string;
  version: string;
  filename: string;
  files: { path: string }[];
}

async function pack(workspaces: readonly string[], extra: readonly string[]): Promise<PackedWorkspace[]> {
  const args = ['pack', '--json', '--ignore-scripts', ...workspaces.flatMap((workspace) => ['-w', workspace]), ...extra];
  const { stdout } = await run('npm', args, { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
  // npm reports the workspaces in its own order: matched back by package name.
  const reports = JSON.parse(stdout) as PackReport[];
  return Promise.all(
    workspaces.map(async (workspace) => {
      const { name } = JSON.parse(await readFile(path.join(REPO, workspace, 'package.json'), 'utf8')) as { name: string };
      const report = reports.find((candidate) => candidate.name === name);
      if (!report) throw new Error(`npm pack reported nothing for ${workspace} (${name})`);
      return { workspace, name, version: report.version, filename: report.filename, files: report.files.map((file) => file.path) };
    }),
  );
}

/** What `npm pack` would put in each workspace's tarball (the built `dist/` must be there). */
export function packedContents(workspaces: readonly string[]): Promise<PackedWorkspace[]> {
  return pack(workspaces, ['--dry-run']);
}

/** Packs the workspaces into `folder`; resolves with each workspace's tarball path, in the order given. */
export async function packWorkspaces(workspaces: readonly string[], folder: string): Promise<string[]> {
  const packed = await pack(workspaces, ['--pack-destination', folder]);
  return packed.map((entry) => path.join(folder, entry.filename));
}
