// The library's sections, the content type each lists, and the names the backend uses for them.
import type { ContentType } from '@keyframe/core/protocol';

export const LIBRARY_SECTIONS = ['sessions', 'buffer', 'clips', 'highlights'] as const;
export type LibrarySection = (typeof LIBRARY_SECTIONS)[number];

export const SECTION_CONTENT_TYPE = {
  sessions: 'Session',
  buffer: 'Buffer',
  clips: 'Clip',
  highlights: 'Highlight',
} as const satisfies Record<LibrarySection, ContentType>;

export const SECTION_LABEL = {
  sessions: 'Sessions',
  buffer: 'Replay Buffer',
  clips: 'Clips',
  highlights: 'Highlights',
} as const satisfies Record<LibrarySection, string>;

/** Singular, for one item of the section: "Delete this session?". */
export const CONTENT_TYPE_NOUN = {
  Session: 'session',
  Buffer: 'replay',
  Clip: 'clip',
  Highlight: 'highlight',
} as const satisfies Record<ContentType, string>;

/** `ImportFile.sectionId` of the sections that take imports. */
export const IMPORT_SECTION_ID: Partial<Record<LibrarySection, 'sessions' | 'replayBuffer'>> = {
  sessions: 'sessions',
  buffer: 'replayBuffer',
};

export function sectionOfType(type: ContentType): LibrarySection {
  return LIBRARY_SECTIONS.find((section) => SECTION_CONTENT_TYPE[section] === type) ?? 'sessions';
}
