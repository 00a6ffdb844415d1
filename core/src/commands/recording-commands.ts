// StartRecording and StopRecording: manual recordings, driven by the recorder.
import { injectable } from 'tsyringe';
import { RecorderService } from '../services/recorder-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class RecordingCommands implements CommandGroup {
  constructor(private readonly recorder: RecorderService) {}

  readonly handlers: CommandHandlers = {
    StartRecording: () => this.recorder.start(),
    StopRecording: async () => {
      await this.recorder.stop();
    },
  };
}
