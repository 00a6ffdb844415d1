// Where Rust's client writes `output_log.txt`: its install folder, beside RustClient.exe.
import path from 'node:path';

export const OUTPUT_LOG_NAME = 'output_log.txt';
/** The install folder inside a Steam library, for when the running executable's path is unknown. */
export const STEAM_INSTALL_FOLDER = ['steamapps', 'common', 'Rust'] as const;

/**
 * Candidate log files, best first: beside the running executable, then in each Steam library's Rust
 * folder. A Windows path keeps its backslashes whatever the platform (games under Proton report one).
 */
export function outputLogCandidates(executablePath: string | undefined, steamLibraries: readonly string[]): string[] {
  const candidates = steamLibraries.map((library) => path.join(library, ...STEAM_INSTALL_FOLDER, OUTPUT_LOG_NAME));
  if (executablePath !== undefined && executablePath !== '') {
    const flavour = executablePath.includes('\\') ? path.win32 : path.posix;
    candidates.unshift(flavour.join(flavour.dirname(executablePath), OUTPUT_LOG_NAME));
  }
  return [...new Set(candidates)];
}
