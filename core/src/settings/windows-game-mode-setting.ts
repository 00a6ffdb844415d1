// Applies `disableWindowsGameMode` at start-up and at every change of it: Game Mode off while the setting
// is on, the user's own values back when it is turned off (platform/windows-game-mode.ts plans what to
// write). The user's values are kept in `<data folder>/windows-game-mode.json` from the moment Keyframe
// turns Game Mode off until it has restored them, so a restart in between loses nothing.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { Type } from '#typebox';
import { describeProblems } from '../protocol/index.js';
import { planGameMode, type GameModeRegistry, type GameModeValues } from '../platform/windows-game-mode.js';
import { ServiceOptions } from '../service-options.js';
import { writeFileAtomic } from '../support/atomic-file.js';
import { readCheckedJson } from '../support/checked-json-file.js';
import { Logger } from '../support/logger.js';
import { SettingsStore } from './settings-store.js';

export const GAME_MODE_REGISTRY = Symbol('GameModeRegistry');

const Dword = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);
const RememberedValues = Type.Object({ AutoGameModeEnabled: Dword, AllowAutoGameMode: Dword });

@injectable()
export class WindowsGameModeSetting {
  private readonly logger: Logger;
  private applying: Promise<void> = Promise.resolve();
  private stopFollowing: (() => void) | undefined;
  private toldNotWindows = false;

  constructor(
    private readonly settings: SettingsStore,
    private readonly options: ServiceOptions,
    @inject(GAME_MODE_REGISTRY) private readonly registry: GameModeRegistry | 'none',
    logger: Logger,
  ) {
    this.logger = logger.child('game-mode');
  }

  get file(): string {
    return path.join(this.options.dataFolder, 'windows-game-mode.json');
  }

  /** Applies the setting now, then after every change of it, one application at a time. */
  start(): Promise<void> {
    this.stopFollowing = this.settings.onChange((settings) => void this.apply(settings.disableWindowsGameMode), ['disableWindowsGameMode']);
    return this.apply(this.settings.current.disableWindowsGameMode);
  }

  stop(): void {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
  }

  /** Applies `disable` after the applications before it. Never rejects: a registry that cannot be written is logged, the setting stays. */
  apply(disable: boolean): Promise<void> {
    this.applying = this.applying
      .then(() => this.applyNow(disable))
      .catch((error: unknown) => this.logger.error('Windows Game Mode could not be changed', { disable, error }));
    return this.applying;
  }

  private async applyNow(disable: boolean): Promise<void> {
    if (this.registry === 'none') {
      if (disable && !this.toldNotWindows) {
        this.toldNotWindows = true;
        this.logger.info('disableWindowsGameMode only applies on Windows: nothing changed on this system', { platform: process.platform });
      }
      return;
    }
    const remembered = await this.loadRemembered();
    const plan = planGameMode(disable, await this.registry.read(), remembered);
    // Remembered before anything is written, so the user's values survive a crash in between.
    if (plan.remembered && !remembered) await writeFileAtomic(this.file, `${JSON.stringify(plan.remembered, null, 2)}\n`);
    await this.registry.apply(plan.changes);
    if (!plan.remembered && remembered) await rm(this.file, { force: true });
    if (plan.changes.length > 0)
      this.logger.info(disable ? 'Windows Game Mode turned off' : "Windows Game Mode set back to the user's values", {
        changes: plan.changes,
      });
  }

  /** The user's values kept when Keyframe turned Game Mode off; undefined when it did not (or the file is unreadable). */
  private loadRemembered(): Promise<GameModeValues | undefined> {
    return readCheckedJson<GameModeValues>(
      this.file,
      (value) => describeProblems(RememberedValues, value),
      (why) => this.logger.warn("the user's Game Mode values are unreadable: they cannot be restored", { file: this.file, ...why }),
    );
  }
}
