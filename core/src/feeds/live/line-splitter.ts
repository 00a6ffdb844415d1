// Turns the bytes appended to a log file into complete lines of text.
import { StringDecoder } from 'node:string_decoder';

const DEFAULT_MAX_LINE_LENGTH = 64 * 1024;

export class LineSplitter {
  private decoder: StringDecoder;
  private partial = '';
  /** The line being read is already cut at the limit: drop text until its end. */
  private overLimit = false;

  constructor(
    private readonly encoding: BufferEncoding = 'utf8',
    private readonly maxLineLength = DEFAULT_MAX_LINE_LENGTH,
  ) {
    this.decoder = new StringDecoder(encoding);
  }

  /**
   * The lines completed by `chunk` (`\n` or `\r\n` removed). A line without its newline yet is held;
   * a line longer than the limit is cut to it, so a binary file cannot take memory without bound.
   * Undecodable bytes become U+FFFD instead of throwing.
   */
  push(chunk: Buffer): string[] {
    const pieces = this.decoder.write(chunk).split('\n');
    const lines: string[] = [];
    for (const [index, piece] of pieces.entries()) {
      this.append(piece);
      if (index === pieces.length - 1) break;
      lines.push(this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial);
      this.partial = '';
      this.overLimit = false;
    }
    return lines;
  }

  /** Forgets a held line and any half-decoded character: the file was truncated or replaced. */
  reset(): void {
    this.decoder = new StringDecoder(this.encoding);
    this.partial = '';
    this.overLimit = false;
  }

  private append(text: string): void {
    if (this.overLimit) return;
    this.partial += text;
    if (this.partial.length > this.maxLineLength) {
      this.partial = this.partial.slice(0, this.maxLineLength);
      this.overLimit = true;
    }
  }
}
