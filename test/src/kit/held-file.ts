// A file the service is about to read, held: replaced by a named pipe, so the service's read of it waits until the
// test releases it, then gets the original text (and finds the regular file again from then on). A test watches
// what the service shows while it is busy at that file, e.g. in the middle of a data migration, without timing.
// POSIX only (mkfifo).
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { lstat, open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';

export class HeldFile {
  private writer: FileHandle | undefined;
  private released = false;

  private constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /** Replaces `file` by a named pipe that serves its text once released. */
  static async hold(file: string): Promise<HeldFile> {
    const text = await readFile(file, 'utf8');
    await rm(file);
    await promisify(execFile)('mkfifo', [file]);
    return new HeldFile(file, text);
  }

  /** Resolves once a process has opened the file to read it, and waits there. */
  async reading(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.writer) {
      try {
        // Without a reader, a non-blocking open for writing fails with ENXIO instead of waiting.
        this.writer = await open(this.file, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
        if (Date.now() > deadline) throw new Error(`nothing read ${this.file} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  /** The reader gets the text; the file is a regular file with that text again before it does. Once only: again, nothing. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.reading();
    const regular = `${this.file}.held`;
    await writeFile(regular, this.text);
    await rename(regular, this.file);
    await this.writer!.write(this.text);
    await this.writer!.close();
    if (!(await lstat(this.file)).isFile()) throw new Error(`${this.file} is not a regular file again`);
  }
}
