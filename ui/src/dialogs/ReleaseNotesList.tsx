import type { ReleaseNote } from '@keyframe/core/protocol';
import { lazy, Suspense } from 'react';
import { decodeBase64Text } from './base64-text';

// markdown-it is a fifth of the app's code and only release notes need it: loaded when notes are first shown.
const Markdown = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })));

const formatDate = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
};

/** Release notes, one article per version, the Markdown decoded from base64. */
export function ReleaseNotesList({ notes }: { notes: ReleaseNote[] }) {
  if (notes.length === 0) return <p className="empty">No release notes yet.</p>;
  return (
    <Suspense fallback={<p className="empty">Loading the release notes…</p>}>
      <div className="release-notes" data-testid="release-notes">
        {notes.map((note) => {
          const text = decodeBase64Text(note.base64Markdown);
          return (
            <article className="release-notes__entry" key={note.version}>
              <header className="release-notes__header">
                <h3 className="release-notes__version">Version {note.version}</h3>
                <time className="release-notes__date" dateTime={note.releaseDate}>
                  {formatDate(note.releaseDate)}
                </time>
              </header>
              {text === undefined ? <p className="empty">These notes could not be read.</p> : <Markdown source={text} />}
            </article>
          );
        })}
      </div>
    </Suspense>
  );
}
