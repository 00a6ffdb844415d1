// Finds the ffmpeg and ffprobe executables in the order of TOOLCHAIN.md: environment variable,
// ffmpeg-static, the @ffmpeg-installer / @ffprobe-installer packages, then PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { currentEnvironment, type Environment } from '../platform/data-folders.js';

export type ToolSource = 'environment' | 'ffmpeg-static' | 'installer-package' | 'path';

export interface LocatedTool {
  path: string;
  source: ToolSource;
}

export interface FfmpegTools {
  ffmpeg: LocatedTool;
  ffprobe: LocatedTool;
}

/** What was tried and why it was not taken; part of the error text when nothing is found. */
export interface Candidate {
  source: ToolSource;
  path?: string;
  problem: string;
}

export class FfmpegNotFoundError extends Error {
  constructor(readonly tool: 'ffmpeg' | 'ffprobe', readonly tried: readonly Candidate[]) {
    const variable = tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
    super(`${tool} was not found. Install ffmpeg (it provides ${tool}) so that it is on PATH, or set ${variable} to the `
      + `executable. Tried: ${tried.map((candidate) => `${candidate.source}${candidate.path ? ` ${candidate.path}` : ''} (${candidate.problem})`).join('; ')}.`);
    this.name = 'FfmpegNotFoundError';
  }
}

/** The package specifiers are resolved from here, i.e. from @keyframe/core's own dependencies. */
const requireFromCore = createRequire(import.meta.url);

interface ToolRecipe {
  tool: 'ffmpeg' | 'ffprobe';
  variable: string;
  /** Packages whose export is the path (`ffmpeg-static`) or has a `.path` (`@ffmpeg-installer/ffmpeg`). */
  packages: { specifier: string; source: ToolSource }[];
}

const RECIPES: Record<'ffmpeg' | 'ffprobe', ToolRecipe> = {
  ffmpeg: {
    tool: 'ffmpeg',
    variable: 'FFMPEG_PATH',
    packages: [
      { specifier: 'ffmpeg-static', source: 'ffmpeg-static' },
      { specifier: '@ffmpeg-installer/ffmpeg', source: 'installer-package' },
    ],
  },
  ffprobe: {
    tool: 'ffprobe',
    variable: 'FFPROBE_PATH',
    packages: [{ specifier: '@ffprobe-installer/ffprobe', source: 'installer-package' }],
  },
};

export interface LocateOptions {
  environment?: Environment;
  /** Loads a package by specifier; tests replace it. Default: `require` from this package. */
  loadPackage?: (specifier: string) => unknown;
}

/** Both tools, or `FfmpegNotFoundError` naming what was tried. */
export function locateFfmpegTools(options: LocateOptions = {}): FfmpegTools {
  return { ffmpeg: locateTool('ffmpeg', options), ffprobe: locateTool('ffprobe', options) };
}

export function locateTool(tool: 'ffmpeg' | 'ffprobe', options: LocateOptions = {}): LocatedTool {
  const environment = options.environment ?? currentEnvironment();
  const loadPackage = options.loadPackage ?? ((specifier: string) => requireFromCore(specifier) as unknown);
  const recipe = RECIPES[tool];
  const tried: Candidate[] = [];
  const consider = (source: ToolSource, candidate: string | undefined): LocatedTool | undefined => {
    if (!candidate) return undefined;
    const problem = executableProblem(candidate, environment.platform);
    if (problem) {
      tried.push({ source, path: candidate, problem });
      return undefined;
    }
    return { path: candidate, source };
  };

  const fromVariable = environment.variables[recipe.variable];
  if (fromVariable) {
    const found = consider('environment', path.resolve(fromVariable));
    if (found) return found;
  } else {
    tried.push({ source: 'environment', problem: `${recipe.variable} not set` });
  }

  for (const { specifier, source } of recipe.packages) {
    let exported: unknown;
    try {
      exported = loadPackage(specifier);
    } catch (error) {
      // @ffmpeg-installer throws a plain string when its platform binary is missing.
      tried.push({ source, problem: `${specifier} not usable: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` });
      continue;
    }
    const packagePath = typeof exported === 'string' ? exported : pathProperty(exported);
    if (!packagePath) {
      tried.push({ source, problem: `${specifier} gave no path` });
      continue;
    }
    const found = consider(source, packagePath);
    if (found) return found;
  }

  const onPath = findOnPath(tool, environment);
  if (onPath) return { path: onPath, source: 'path' };
  tried.push({ source: 'path', problem: `no ${tool} in PATH` });
  throw new FfmpegNotFoundError(tool, tried);
}

/** The first executable file called `name` in the PATH folders (with PATHEXT on Windows). */
export function findOnPath(name: string, environment: Environment = currentEnvironment()): string | undefined {
  const windows = environment.platform === 'win32';
  const separator = windows ? ';' : ':';
  const folders = (environment.variables.PATH ?? environment.variables.Path ?? '').split(separator).filter(Boolean);
  const extensions = windows ? (environment.variables.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  for (const folder of folders) {
    for (const extension of extensions) {
      const candidate = path.join(folder, `${name}${extension}`);
      if (!executableProblem(candidate, environment.platform)) return candidate;
    }
  }
  return undefined;
}

/** Why `file` cannot be run, or undefined when it can. */
function executableProblem(file: string, platform: NodeJS.Platform): string | undefined {
  try {
    if (!statSync(file).isFile()) return 'not a file';
  } catch {
    return 'file does not exist';
  }
  if (platform === 'win32') return undefined;
  try {
    accessSync(file, constants.X_OK);
    return undefined;
  } catch {
    return 'not executable (chmod u+x it)';
  }
}

function pathProperty(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const candidate = (value as { path?: unknown }).path;
  return typeof candidate === 'string' ? candidate : undefined;
}

