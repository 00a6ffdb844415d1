// What a player can tell the integration in Keyframe's settings page.
import { defineSettings, Type, type SettingsValues } from '@keyframe/core';

export const blockSandboxSettings = defineSettings({
  gameFolder: Type.String({
    default: '',
    title: 'Game folder of another launcher',
    description:
      'A Minecraft game folder that holds logs/latest.log, for a launcher Keyframe does not know (CurseForge, MultiMC, ATLauncher). ' +
      'Empty: the Minecraft Launcher and Prism Launcher folders.',
  }),
});
export type BlockSandboxSettings = SettingsValues<typeof blockSandboxSettings>;
