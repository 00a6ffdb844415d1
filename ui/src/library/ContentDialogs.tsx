// The dialogs behind the library's actions: rename, delete (one or several), upload.
import type { ContentItem } from '@keyframe/core/protocol';
import { useId, useState, type ReactNode } from 'react';
import { CONTENT_TYPE_NOUN } from './content-types';
import { deleteContent, FORBIDDEN_TITLE_CHARACTERS, renameContent, uploadContent, type UploadDetails } from './content-commands';
import { displayTitle } from './content-format';
import { Dialog } from './Dialog';

export type ContentDialogRequest =
  { kind: 'rename'; item: ContentItem } | { kind: 'delete'; items: readonly ContentItem[] } | { kind: 'upload'; item: ContentItem };

/** The open dialog (render it) and a way to open one; `onDeleted` runs after a confirmed delete. */
export function useContentDialogs(
  onDeleted?: (items: readonly ContentItem[]) => void,
): [ReactNode, (request: ContentDialogRequest) => void] {
  const [request, setRequest] = useState<ContentDialogRequest>();
  const close = () => setRequest(undefined);
  let dialog: ReactNode = null;
  if (request?.kind === 'rename') {
    dialog = <RenameDialog key={request.item.filePath} item={request.item} onClose={close} />;
  } else if (request?.kind === 'delete') {
    dialog = (
      <DeleteDialog
        items={request.items}
        onClose={close}
        onConfirm={() => {
          deleteContent(request.items);
          close();
          onDeleted?.(request.items);
        }}
      />
    );
  } else if (request?.kind === 'upload') {
    dialog = <UploadDialog key={request.item.filePath} item={request.item} onClose={close} />;
  }
  return [dialog, setRequest];
}

function RenameDialog({ item, onClose }: { item: ContentItem; onClose: () => void }) {
  const [title, setTitle] = useState(item.title);
  const fieldId = useId();
  const invalid = FORBIDDEN_TITLE_CHARACTERS.test(title);
  return (
    <Dialog
      title={`Rename ${CONTENT_TYPE_NOUN[item.type]}`}
      confirmLabel="Rename"
      canConfirm={!invalid && title.trim() !== item.title}
      onCancel={onClose}
      onConfirm={() => {
        renameContent(item, title);
        onClose();
      }}
      testId="rename-dialog"
    >
      <label className="library-field" htmlFor={fieldId}>
        <span className="library-field__label">Title</span>
        <input
          id={fieldId}
          className="input library-field__input"
          value={title}
          placeholder={item.fileName}
          autoFocus
          maxLength={180}
          aria-invalid={invalid}
          onChange={(event) => setTitle(event.target.value)}
          data-testid="rename-input"
        />
      </label>
      <p className={invalid ? 'library-field__hint library-field__hint--error' : 'library-field__hint'}>
        {invalid ? 'A title cannot contain < > : " / \\ | ? *' : 'The video file is renamed too. Leave it empty for the recording time.'}
      </p>
    </Dialog>
  );
}

function DeleteDialog({ items, onClose, onConfirm }: { items: readonly ContentItem[]; onClose: () => void; onConfirm: () => void }) {
  const [only] = items;
  const what = items.length === 1 && only ? `“${displayTitle(only)}”` : `${items.length} videos`;
  return (
    <Dialog title={`Delete ${what}?`} confirmLabel="Delete" danger onCancel={onClose} onConfirm={onConfirm} testId="delete-dialog">
      <p className="modal__description">
        The {items.length === 1 ? 'video, its bookmarks and its thumbnail are' : 'videos, their bookmarks and thumbnails are'} removed from
        disk. This cannot be undone.
      </p>
    </Dialog>
  );
}

type Visibility = NonNullable<UploadDetails['Visibility']>;
const VISIBILITIES: readonly Visibility[] = ['Public', 'Unlisted', 'Private'];

function UploadDialog({ item, onClose }: { item: ContentItem; onClose: () => void }) {
  const [title, setTitle] = useState(displayTitle(item));
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('Public');
  const titleId = useId();
  const descriptionId = useId();
  const visibilityId = useId();
  return (
    <Dialog
      title={`Upload ${CONTENT_TYPE_NOUN[item.type]}`}
      confirmLabel="Upload"
      canConfirm={title.trim() !== ''}
      onCancel={onClose}
      onConfirm={() => {
        uploadContent(item, { Title: title.trim(), Description: description, Visibility: visibility });
        onClose();
      }}
      testId="upload-dialog"
    >
      <label className="library-field" htmlFor={titleId}>
        <span className="library-field__label">Title</span>
        <input
          id={titleId}
          className="input library-field__input"
          value={title}
          autoFocus
          onChange={(event) => setTitle(event.target.value)}
        />
      </label>
      <label className="library-field" htmlFor={descriptionId}>
        <span className="library-field__label">Description</span>
        <textarea
          id={descriptionId}
          className="input library-field__input"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </label>
      <label className="library-field" htmlFor={visibilityId}>
        <span className="library-field__label">Visibility</span>
        <select
          id={visibilityId}
          className="input library-field__input"
          value={visibility}
          onChange={(event) => setVisibility(VISIBILITIES.find((value) => value === event.target.value) ?? 'Public')}
        >
          {VISIBILITIES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
    </Dialog>
  );
}
