import { expect } from 'chai';
import { chordMatches, chordOf, describeKeys, type KeyChord } from './key-chords.js';

const F8 = 66;
const chord = (keys: number[]): KeyChord => {
  const result = chordOf(keys);
  if ('problem' in result) throw new Error(result.problem);
  return result.chord;
};
const press = (keycode: number, modifiers: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) => ({
  keycode,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...modifiers,
});

describe('key chords', () => {
  it('maps virtual-key codes (F keys, letters, digits, numpad, punctuation) to the hook key codes', () => {
    expect(chord([119])).to.deep.equal({ keycode: F8, ctrl: false, alt: false, shift: false, meta: false });
    expect(chord([122]).keycode).to.equal(87); // F11 is not F10 + 1 in scan codes
    expect(chord([0x41]).keycode).to.equal(30); // A
    expect(chord([0x30]).keycode).to.equal(11); // 0
    expect(chord([0x61]).keycode).to.equal(79); // Numpad1
    expect(chord([0xbc]).keycode).to.equal(51); // comma
  });

  it('collects Ctrl, Alt, Shift and Win from generic and left/right codes', () => {
    expect(chord([0x11, 0x10, 0x53])).to.deep.equal({ keycode: 31, ctrl: true, alt: false, shift: true, meta: false });
    expect(chord([0xa5, 0x5c, 0x70])).to.deep.equal({ keycode: 59, ctrl: false, alt: true, shift: false, meta: true });
  });

  it('refuses bindings without a key, with two keys, or with a code no hook knows', () => {
    expect(chordOf([]))
      .to.have.property('problem')
      .that.matches(/needs one key/);
    expect(chordOf([0x11]))
      .to.have.property('problem')
      .that.matches(/needs one key/);
    expect(chordOf([0x41, 0x42]))
      .to.have.property('problem')
      .that.matches(/one key besides/);
    expect(chordOf([0xff]))
      .to.have.property('problem')
      .that.matches(/255/);
  });

  it('matches the key with exactly the bound modifiers', () => {
    const ctrlF8 = chord([0x11, 119]);
    expect(chordMatches(ctrlF8, press(F8, { ctrlKey: true }))).to.equal(true);
    expect(chordMatches(ctrlF8, press(F8))).to.equal(false);
    expect(chordMatches(ctrlF8, press(F8, { ctrlKey: true, shiftKey: true }))).to.equal(false);
    expect(chordMatches(ctrlF8, press(67, { ctrlKey: true }))).to.equal(false);
  });

  it('describes bindings for people', () => {
    expect(describeKeys([0x10, 0x11, 119])).to.equal('Ctrl+Shift+F8');
    expect(describeKeys([0xbf])).to.equal('/');
    expect(describeKeys([])).to.equal('(no key)');
  });
});
