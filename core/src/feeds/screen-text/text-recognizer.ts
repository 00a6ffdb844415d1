// One tesseract.js worker for every integration that reads on-screen text: created on first use,
// terminated when the last user lets go. Offline by construction: the English data comes from
// @tesseract.js-data/eng and nothing is cached to disk (TOOLCHAIN.md, "tesseract.js offline").
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';

export interface Recognition {
  text: string;
  /** 0–100. */
  confidence: number;
}

export interface TextRecognizer {
  /** Reads one line of text from an image file's bytes (PGM, PNG, …). */
  recognize(image: Buffer): Promise<Recognition>;
}

/** A user of the shared worker; `release()` once it no longer reads. */
export interface RecognizerLease extends TextRecognizer {
  release(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * A tesseract.js worker with the English data from node_modules. `line`: one line of text (a game's
 * message); `sparse`: text anywhere on a whole picture (what reading without a region costs).
 */
export async function createOfflineWorker(layout: 'line' | 'sparse' = 'line'): Promise<Worker> {
  // Imported here: most sessions never read on-screen text, and the service starts faster without it.
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  const engFolder = path.dirname(require.resolve('@tesseract.js-data/eng/package.json'));
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: path.join(engFolder, '4.0.0_best_int'),
    gzip: true,
    cacheMethod: 'none',
  });
  // The dpi silences "Estimating resolution"; the debug file, the statistics tesseract prints to
  // stdout for a line it finds no text in. A line is black on white already (binarize.ts): tesseract's
  // second reading of a doubtful line inverted (white on black) only doubles the cost of noise.
  await worker.setParameters({
    tessedit_pageseg_mode: layout === 'line' ? PSM.SINGLE_LINE : PSM.SPARSE_TEXT,
    user_defined_dpi: '300',
    debug_file: '/dev/null',
    ...(layout === 'line' ? { tessedit_do_invert: '0' } : {}),
  });
  return worker;
}

export class SharedTextRecognizer {
  private users = 0;
  private worker: Promise<Worker> | undefined;
  /** Settles when the last termination has finished, so a new worker never overlaps an old one. */
  private terminating: Promise<void> = Promise.resolve();

  constructor(private readonly start: () => Promise<Worker> = () => createOfflineWorker('line')) {}

  /** Whether a worker exists (or is being created) right now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  lease(): RecognizerLease {
    this.users += 1;
    let released = false;
    return {
      recognize: (image) => {
        if (released) return Promise.reject(new Error('this text recognizer lease was released'));
        return this.recognize(image);
      },
      release: async () => {
        if (released) return;
        released = true;
        await this.releaseOne();
      },
    };
  }

  private async recognize(image: Buffer): Promise<Recognition> {
    if (!this.worker) {
      const starting = this.terminating.then(() => this.start());
      this.worker = starting;
      // A worker that cannot start is forgotten, so the next frame tries again.
      starting.catch(() => {
        if (this.worker === starting) this.worker = undefined;
      });
    }
    const { data } = await (await this.worker).recognize(image);
    return { text: data.text.trim(), confidence: data.confidence };
  }

  private async releaseOne(): Promise<void> {
    this.users -= 1;
    if (this.users > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = undefined;
    this.terminating = worker
      .then(
        (started) => started.terminate(),
        () => undefined,
      )
      .then(
        () => undefined,
        () => undefined,
      );
    await this.terminating;
  }
}
