// Structured logging: one JSON object per line in a size-rotated file, warnings also on stderr.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { redact } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface LogRecord {
  time: string;
  level: LogLevel;
  scope: string;
  message: string;
  fields?: LogFields;
}

export interface LogSink {
  /** The least severe level this sink writes; records below it are not even prepared. Default: all. */
  readonly level?: LogLevel;
  write(record: LogRecord): void;
  close(): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** `text` when it names a level (e.g. `KEYFRAME_LOG_LEVEL=debug`), else `fallback`. */
export function logLevelFrom(text: string | undefined, fallback: LogLevel): LogLevel {
  const level = text?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(LEVEL_ORDER, level) ? (level as LogLevel) : fallback;
}

export class Logger {
  constructor(
    private readonly sinks: readonly LogSink[],
    private readonly scope = 'keyframe',
  ) {}

  /** A logger whose records name `scope` (e.g. `transport`, `plugin:tacticalShooter`). */
  child(scope: string): Logger {
    return new Logger(this.sinks, scope);
  }

  /** Whether a record at `level` is written anywhere: fields costly to prepare (an excerpt of a frame) are prepared only then. */
  writes(level: LogLevel): boolean {
    return this.sinks.some((sink) => isWritten(level, sink.level));
  }

  debug(message: string, fields?: LogFields): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.log('error', message, fields);
  }

  close(): void {
    for (const sink of this.sinks) sink.close();
  }

  private log(level: LogLevel, message: string, fields?: LogFields): void {
    const sinks = this.sinks.filter((sink) => isWritten(level, sink.level));
    if (sinks.length === 0) return;
    const record: LogRecord = { time: new Date().toISOString(), level, scope: this.scope, message };
    // Redaction also turns errors into plain data (name, message, stack, cause, code).
    if (fields) record.fields = redact(fields) as LogFields;
    for (const sink of sinks) sink.write(record);
  }
}

function isWritten(level: LogLevel, sinkLevel: LogLevel = 'debug'): boolean {
  return LEVEL_ORDER[level] >= LEVEL_ORDER[sinkLevel];
}

export interface RotatingFileSinkOptions {
  maxBytes?: number;
  keepFiles?: number;
  level?: LogLevel;
}

/** `keyframe.log`, rotated to `keyframe.1.log` … `keyframe.N.log` when it grows past `maxBytes`. */
export class RotatingFileSink implements LogSink {
  private descriptor: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly keepFiles: number;
  readonly level: LogLevel;

  constructor(
    private readonly filePath: string,
    options: RotatingFileSinkOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.keepFiles = options.keepFiles ?? 3;
    // Debug lines (every command's parameters, every ffmpeg command line) are for a developer who asks for them.
    this.level = options.level ?? 'info';
    mkdirSync(path.dirname(filePath), { recursive: true });
    this.open();
  }

  write(record: LogRecord): void {
    if (this.descriptor === undefined || !isWritten(record.level, this.level)) return;
    const line = `${JSON.stringify(record)}\n`;
    if (this.size + line.length > this.maxBytes && this.size > 0) this.rotate();
    this.size += writeSync(this.descriptor, line);
  }

  close(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  private open(): void {
    this.descriptor = openSync(this.filePath, 'a', 0o600);
    this.size = statSync(this.filePath).size;
  }

  private rotate(): void {
    this.close();
    const numbered = (index: number) => this.filePath.replace(/(\.log)?$/, `.${index}.log`);
    rmSync(numbered(this.keepFiles), { force: true });
    for (let index = this.keepFiles - 1; index >= 1; index--) {
      if (existsSync(numbered(index))) renameSync(numbered(index), numbered(index + 1));
    }
    renameSync(this.filePath, numbered(1));
    this.open();
  }
}

/** Human-readable lines on stderr, for what a person running the service should see. */
export class ConsoleSink implements LogSink {
  constructor(readonly level: LogLevel = 'warn') {}

  write(record: LogRecord): void {
    if (!isWritten(record.level, this.level)) return;
    const fields = record.fields ? ` ${JSON.stringify(record.fields)}` : '';
    process.stderr.write(`${record.time} ${record.level.toUpperCase()} [${record.scope}] ${record.message}${fields}\n`);
  }

  close(): void {}
}
