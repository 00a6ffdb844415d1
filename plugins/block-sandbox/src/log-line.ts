// Reads one line of the Java Edition client log: the line naming the local user, a chat line, or
// anything else. The prefix differs by loader and age:
//   vanilla / Fabric:  [16:37:42] [Render thread/INFO]: <message>      (≤1.12: [Client thread/INFO])
//   NeoForge / Forge:  [29Oct2024 16:54:44.901] [Render thread/INFO] [net.minecraft.client.Minecraft/]: <message>
//   Fabric dev:        [12:24:01] [Render thread/INFO] (net.minecraft.client.Minecraft) <message>
// and chat messages are `[CHAT] <text>`, since 1.19.3 `[System] [CHAT] <text>` (one bracketed tag may precede `[CHAT]`).

export type LogLine =
  { readonly kind: 'user'; readonly name: string } | { readonly kind: 'chat'; readonly text: string } | { readonly kind: 'other' };

const MESSAGE = /^\[[^\]]+\] \[[^\]]+\](?::| \[[^\]]*\]:| \([^)]*\)) (.*)$/s;
const SETTING_USER = /^Setting user: (\S+)$/;
const CHAT = /^(?:\[[^\]]+\] )?\[CHAT\] (.*)$/s;
/** Legacy formatting codes (`§a`, `§l`, …) that some servers put into chat text. */
const FORMATTING_CODE = /§[0-9a-fk-or]/gi;

const OTHER: LogLine = { kind: 'other' };

export function readLogLine(line: string): LogLine {
  const message = MESSAGE.exec(line.trimEnd())?.[1];
  if (message === undefined) return OTHER;
  const user = SETTING_USER.exec(message)?.[1];
  if (user !== undefined) return { kind: 'user', name: user };
  const chat = CHAT.exec(message)?.[1];
  if (chat !== undefined) return { kind: 'chat', text: chat.replace(FORMATTING_CODE, '') };
  return OTHER;
}
