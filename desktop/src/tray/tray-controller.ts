// Keeps the tray in step with the service: each State, Settings and replay-save event redraws the model, and a menu
// entry chosen runs its action.
import type { ServiceEvent, Settings, State } from '@keyframe/core/protocol';
import type { TrayAdapter } from './tray-adapter.js';
import { performTrayAction, type TrayActionTargets } from './tray-actions.js';
import { trayModel, type TrayAction } from './tray-model.js';

export class TrayController {
  private savingReplay = false;
  private adapter: TrayAdapter | undefined;

  constructor(
    private state: Readonly<State>,
    private settings: Readonly<Settings>,
    private readonly targets: Omit<TrayActionTargets, 'isRecording'>,
    private readonly log: (message: string) => void,
  ) {}

  /** Draws on `adapter` from now on. */
  attach(adapter: TrayAdapter): void {
    this.adapter = adapter;
    this.redraw();
  }

  get model() {
    return trayModel({ state: this.state, settings: this.settings, savingReplay: this.savingReplay });
  }

  hear(event: ServiceEvent): void {
    if (event.method === 'State') this.state = event.content;
    else if (event.method === 'Settings') this.settings = event.content;
    else if (event.method === 'ReplayBufferSaveStarted') this.savingReplay = true;
    else if (event.method === 'ReplayBufferSaved') this.savingReplay = false;
    else if (event.method === 'CommandRejected' && event.content.method === 'SaveReplayBuffer') this.savingReplay = false;
    else return;
    this.redraw();
  }

  /** What the OS adapter calls when the user picks an entry; a failure is logged, the tray stays. */
  choose(action: TrayAction): void {
    const recording = this.state.recording;
    performTrayAction(action, { ...this.targets, isRecording: () => recording !== null && recording.endTime === null }).catch(
      (error: unknown) => this.log(`the tray's "${action}" failed: ${(error as Error).message}`),
    );
  }

  private redraw(): void {
    this.adapter?.show(this.model);
  }
}
