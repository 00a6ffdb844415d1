// The user's approvals of third-party integrations: which package (folder and content hash) they
// allowed to run, kept in `<data>/plugin-approvals.json`, written atomically.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Type, { type Static } from 'typebox';
import { describeProblems } from '../protocol/index.js';
import { writeFileAtomic } from '../support/atomic-file.js';

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

export class PluginApprovals {
  private approvals: Record<string, Approval> = {};
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {}

  /** Reads the file; a missing one approves nothing. A damaged one too, and the reason is returned. */
  async load(): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return `${this.file} is not JSON (${error instanceof Error ? error.message : String(error)}): no integration counts as approved`;
    }
    const problems = describeProblems(ApprovalsFile, parsed);
    if (problems.length > 0) return `${this.file} is damaged (${problems.join('; ')}): no integration counts as approved`;
    this.approvals = (parsed as ApprovalsFile).approvals;
    return undefined;
  }

  /** Whether the user approved exactly this package: same folder, same contents. */
  isApproved(key: string, packagePath: string, hash: string): boolean {
    const approval = this.approvals[key];
    return approval !== undefined && approval.hash === hash && approval.path === packagePath;
  }

  async approve(key: string, packagePath: string, hash: string, at = new Date()): Promise<void> {
    this.approvals = { ...this.approvals, [key]: { hash, path: packagePath, approvedAt: at.toISOString() } };
    await this.save();
  }

  async revoke(key: string): Promise<void> {
    if (!(key in this.approvals)) return;
    const { [key]: _revoked, ...rest } = this.approvals;
    this.approvals = rest;
    await this.save();
  }

  /** Writes one after another, each the whole current content. */
  private save(): Promise<void> {
    const content: ApprovalsFile = { version: 1, approvals: this.approvals };
    this.writes = this.writes.catch(() => undefined).then(() => writeFileAtomic(this.file, `${JSON.stringify(content, null, 2)}\n`));
    return this.writes;
  }
}
