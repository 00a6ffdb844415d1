import { expect } from 'chai';
import { readLogLine } from './log-line.js';

describe('readLogLine', () => {
  it('reads the user from the vanilla, NeoForge and Fabric development prefixes', () => {
    expect(readLogLine('[16:25:05] [Render thread/INFO]: Setting user: MrChozo')).to.deep.equal({ kind: 'user', name: 'MrChozo' });
    expect(readLogLine('[20:00:31] [Client thread/INFO]: Setting user: majorawsoem')).to.deep.equal({ kind: 'user', name: 'majorawsoem' });
    expect(
      readLogLine('[29Oct2024 16:54:44.901] [Render thread/INFO] [net.minecraft.client.Minecraft/]: Setting user: Aternos'),
    ).to.deep.equal({ kind: 'user', name: 'Aternos' });
    expect(readLogLine('[12:24:01] [Render thread/INFO] (net.minecraft.client.Minecraft) Setting user: Player804')).to.deep.equal({
      kind: 'user',
      name: 'Player804',
    });
    expect(readLogLine('[20:14:25] [Render thread/INFO]: Setting user: redskilz\r')).to.deep.equal({ kind: 'user', name: 'redskilz' });
  });

  it('reads chat text in the old [CHAT] and the newer [System] [CHAT] forms', () => {
    expect(readLogLine('[16:37:42] [Render thread/INFO]: [CHAT] MrChozo was shot by Skeleton')).to.deep.equal({
      kind: 'chat',
      text: 'MrChozo was shot by Skeleton',
    });
    expect(readLogLine('[20:04:33] [Client thread/INFO]: [CHAT] majorawsoem was slain by X')).to.deep.equal({
      kind: 'chat',
      text: 'majorawsoem was slain by X',
    });
    expect(readLogLine('[22:25:26] [Render thread/INFO]: [System] [CHAT] redskilz was killed')).to.deep.equal({
      kind: 'chat',
      text: 'redskilz was killed',
    });
    expect(
      readLogLine(
        '[1Jan2025 10:00:00.000] [Render thread/INFO] [net.minecraft.client.gui.components.ChatComponent/]: [System] [CHAT] A drowned',
      ),
    ).to.deep.equal({ kind: 'chat', text: 'A drowned' });
  });

  it('drops formatting codes from chat text', () => {
    expect(readLogLine('[1:00:00] [Client thread/INFO]: [CHAT] §cSteve§r was slain by §9Alex')).to.deep.equal({
      kind: 'chat',
      text: 'Steve was slain by Alex',
    });
  });

  it('is not fooled by a chat message that quotes a log line', () => {
    expect(readLogLine('[1:00:00] [Render thread/INFO]: [CHAT] <Alex> Setting user: Bob')).to.deep.equal({
      kind: 'chat',
      text: '<Alex> Setting user: Bob',
    });
    expect(readLogLine('Steve was slain by Zombie [CHAT] x')).to.deep.equal({ kind: 'other' });
    expect(readLogLine('[CHAT] Steve drowned')).to.deep.equal({ kind: 'other' });
  });

  it('calls everything else other', () => {
    for (const line of [
      '',
      'garbage',
      '\u0000\u00ff',
      '[16:25:06] [Render thread/INFO]: Backend library: LWJGL version 3.2.2',
      '\tat net.minecraft.client.main.Main.main(Main.java:1)',
      '[16:25:06] [Render thread/INFO]: Setting user:',
      '[16:25:06] [Render thread/INFO]: Setting user: two words',
    ]) {
      expect(readLogLine(line), JSON.stringify(line)).to.deep.equal({ kind: 'other' });
    }
  });
});
