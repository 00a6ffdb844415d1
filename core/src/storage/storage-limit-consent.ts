// The user's answer to "may the storage limit delete old recordings?", for one content folder and one
// limit, kept in `<data folder>/storage-limit-consent.json` so it is asked once, not at every check.
// A different folder or limit has no answer: it is asked again.
import path from 'node:path';
import { injectable } from 'tsyringe';
import { Type, type Static } from '#typebox';
import { describeProblems } from '../protocol/index.js';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { readCheckedJson } from '../support/checked-json-file.js';
import { Logger } from '../support/logger.js';
import { samePath } from '../support/paths.js';

const ConsentRecord = Type.Object({
  contentFolder: Type.String(),
  storageLimitGb: Type.Number(),
  automaticDeletion: Type.Union([Type.Literal('allowed'), Type.Literal('declined')]),
  answeredAt: Type.String(),
});
type ConsentRecord = Static<typeof ConsentRecord>;
export type DeletionAnswer = ConsentRecord['automaticDeletion'];

@injectable()
export class StorageLimitConsent {
  private record: ConsentRecord | undefined;
  private readonly logger: Logger;

  constructor(
    private readonly options: ServiceOptions,
    logger: Logger,
  ) {
    this.logger = logger.child('storage');
  }

  get file(): string {
    return path.join(this.options.dataFolder, 'storage-limit-consent.json');
  }

  /** Reads the saved answer; a missing or unreadable file means "not asked yet". */
  async load(): Promise<void> {
    this.record = await readCheckedJson<ConsentRecord>(
      this.file,
      (value) => describeProblems(ConsentRecord, value),
      (why) => this.logger.warn('storage limit answer unreadable: it will be asked again', { file: this.file, ...why }),
    );
  }

  /** The answer given for exactly this folder and limit, if any. */
  answerFor(contentFolder: string, storageLimitGb: number): DeletionAnswer | undefined {
    const record = this.record;
    if (!record || record.storageLimitGb !== storageLimitGb || !samePath(record.contentFolder, contentFolder)) return undefined;
    return record.automaticDeletion;
  }

  async save(contentFolder: string, storageLimitGb: number, answer: DeletionAnswer): Promise<void> {
    this.record = { contentFolder, storageLimitGb, automaticDeletion: answer, answeredAt: new Date().toISOString() };
    await writeFileAtomic(this.file, `${JSON.stringify(this.record, null, 2)}\n`);
    this.logger.info('storage limit: automatic deletion answered', this.record);
  }
}
