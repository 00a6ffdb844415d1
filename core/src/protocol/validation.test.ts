import { expect } from 'chai';
import Type from 'typebox';
import { Commands } from './commands.js';
import { BookmarkType, Nullable } from './models.js';
import { describeProblems } from './validation.js';

describe('describeProblems', () => {
  it('lists the allowed values of an enum: what a CommandRejected says of a bad bookmark type', () => {
    const parameters = { FilePath: 'C:/Videos/a.mp4', Type: 'Headshot', Time: '00:00:01', ContentType: 'Clip', Id: 1 };
    expect(describeProblems(Commands.AddBookmark.parameters, parameters)).to.deep.equal([
      '/Type: must be one of Manual, Kill, Death, Assist, Goal',
    ]);
  });

  it('says a union of literals once, with its values and null, instead of once per branch', () => {
    const schema = Type.Object({
      mode: Type.Union([Type.Literal('recording'), Type.Literal('game')]),
      type: Nullable(BookmarkType),
    });
    expect(describeProblems(schema, { mode: 'always', type: 'Kil' })).to.deep.equal([
      '/mode: must be one of recording, game',
      '/type: must be one of Manual, Kill, Death, Assist, Goal, null',
    ]);
  });

  it('leaves a union of other types to its branches', () => {
    expect(describeProblems(Type.Object({ id: Type.Union([Type.String(), Type.Number()]) }), { id: true })).to.deep.equal([
      '/id: must be string',
      '/id: must be number',
      '/id: must match a schema in anyOf',
    ]);
  });
});
