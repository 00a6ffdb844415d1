// The install root of a self-updating installation: `versions/<version>/` holds each unpacked
// version, `current` is a symlink to the one that runs. Switching versions replaces the link by
// renaming a new link over it, so `current` always names a whole version.
import { randomBytes } from 'node:crypto';
import { mkdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';

/** Exit code by which the service asks the launcher to start `current` again (after `ApplyUpdate`). */
export const RESTART_FOR_UPDATE_EXIT_CODE = 75;
/** Set by the launcher for the service it runs: the install root. */
export const INSTALL_ROOT_VARIABLE = 'KEYFRAME_INSTALL_ROOT';
/** Set by the launcher after a rollback: the version that did not start. */
export const ROLLED_BACK_FROM_VARIABLE = 'KEYFRAME_ROLLED_BACK_FROM';
/** The IPC message a service started by the launcher sends once it serves frontends. */
export const READY_MESSAGE = { keyframe: 'ready' } as const;

export class InstallRoot {
  constructor(readonly folder: string) {}

  get versionsFolder(): string {
    return path.join(this.folder, 'versions');
  }
  get currentLink(): string {
    return path.join(this.folder, 'current');
  }

  versionFolder(version: string): string {
    if (!semver.valid(version)) throw new Error(`"${version}" is not a semantic version, so it cannot name a version folder.`);
    return path.join(this.versionsFolder, version);
  }

  /** The absolute folder `current` points at; undefined when there is no `current` link. */
  async currentVersionFolder(): Promise<string | undefined> {
    try {
      return path.resolve(this.folder, await readlink(this.currentLink));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Points `current` at `target` in one rename; a crash leaves the old link or the new one, never none. */
  async switchTo(target: string): Promise<void> {
    if (!(await stat(target)).isDirectory()) throw new Error(`${target} is not a version folder.`);
    const temporary = path.join(this.folder, `.current-${randomBytes(4).toString('hex')}`);
    // A junction needs no privilege on Windows; elsewhere the type is ignored.
    await symlink(path.resolve(target), temporary, 'junction');
    try {
      await rename(temporary, this.currentLink);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Unpacks a .tar.gz package into `versions/<version>/` (entries leaving the folder are refused
   * by tar). It is unpacked under a temporary name first, so a crash never leaves a partial folder
   * under the version's name. A folder of that version from an earlier attempt is replaced,
   * unless it is the one running.
   */
  async unpack(packageFile: string, version: string): Promise<string> {
    const target = this.versionFolder(version);
    if (target === (await this.currentVersionFolder())) throw new Error(`Version ${version} is the one running; it is not unpacked again.`);
    const staging = path.join(this.versionsFolder, `.unpacking-${version}`);
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    try {
      const { extract } = await import('tar');
      await extract({ file: packageFile, cwd: staging, strict: true });
      await rm(target, { recursive: true, force: true });
      await rename(staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw new Error(`The update package ${path.basename(packageFile)} could not be unpacked: ${(error as Error).message}`);
    }
    return target;
  }
}
