// The user's approvals of third-party integrations: which package (folder and content hash) they
// allowed to run, kept in `<data>/plugin-approvals.json`. The service and `keyframe plugin install|remove`
// both change it: each change reads the file again and writes it atomically under a lock file, so
// neither loses the other's.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '#typebox';
import { describeProblems } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { withFileLock } from '../support/file-lock.js';

const Approval = Type.Object({
  hash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  path: Type.String(),
  approvedAt: Type.String(),
});
export type Approval = Static<typeof Approval>;

const ApprovalsFile = Type.Object({
  version: Type.Literal(1),
  approvals: Type.Record(Type.String(), Approval),
});
type ApprovalsFile = Static<typeof ApprovalsFile>;

export const approvalsFile = (dataFolder: string) => path.join(dataFolder, 'plugin-approvals.json');

type ApprovalsRead = { approvals: Record<string, Approval> } | { damaged: string };

export class PluginApprovals {
  private approvals: Record<string, Approval> = {};
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {}

  /** Reads the file; a missing one approves nothing. A damaged one too, and the reason is returned. */
  async load(): Promise<string | undefined> {
    const read = await this.read();
    this.approvals = 'damaged' in read ? {} : read.approvals;
    return 'damaged' in read ? `${read.damaged}: no integration counts as approved` : undefined;
  }

  /** Whether the user approved exactly this package: same folder, same contents. */
  isApproved(key: string, packagePath: string, hash: string): boolean {
    const approval = this.approvals[key];
    return approval !== undefined && approval.hash === hash && approval.path === packagePath;
  }

  async approve(key: string, packagePath: string, hash: string, at = new Date()): Promise<void> {
    await this.change((approvals) => ({ ...approvals, [key]: { hash, path: packagePath, approvedAt: at.toISOString() } }));
  }

  /** Withdraws the approval of `key`; with `packagePath`, only when it is that folder's. */
  async revoke(key: string, packagePath?: string): Promise<void> {
    await this.change((approvals) => {
      const approval = approvals[key];
      if (!approval || (packagePath !== undefined && approval.path !== packagePath)) return undefined;
      const { [key]: _revoked, ...rest } = approvals;
      return rest;
    });
  }

  private async read(): Promise<ApprovalsRead> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return { approvals: {} };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { damaged: `${this.file} is not JSON (${error instanceof Error ? error.message : String(error)})` };
    }
    const problems = describeProblems(ApprovalsFile, parsed);
    if (problems.length > 0) return { damaged: `${this.file} is damaged (${problems.join('; ')})` };
    return { approvals: (parsed as ApprovalsFile).approvals };
  }

  /**
   * One change at a time in this process, and under `<file>.lock` across processes: the file is read again,
   * changed and replaced. `edit` returns undefined when there is nothing to change. A damaged file is left
   * as it is (it is the user's): the change fails and says so.
   */
  private change(edit: (approvals: Record<string, Approval>) => Record<string, Approval> | undefined): Promise<void> {
    const write = async () => {
      const read = await this.read();
      if ('damaged' in read) throw new Error(`${read.damaged}: repair or delete it, then try again`);
      const changed = edit(read.approvals);
      this.approvals = changed ?? read.approvals;
      if (!changed) return;
      const content: ApprovalsFile = { version: 1, approvals: changed };
      await writeFileAtomic(this.file, `${JSON.stringify(content, null, 2)}\n`);
    };
    this.writes = this.writes.catch(() => undefined).then(() => withFileLock(`${this.file}.lock`, write));
    return this.writes;
  }
}
