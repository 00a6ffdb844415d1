import type { EventContentMap, RecoverableFile } from '@keyframe/core/protocol';
import { useRef, useState } from 'react';
import { connection } from '../connection';
import { ModalFrame } from './ModalFrame';

type Answer = 'recover' | 'delete' | 'skip';

interface RecoveryDialogProps {
  prompt: EventContentMap['RecoveryPrompt'];
  onDone: () => void;
}

/** Videos left without metadata by a crash: each is recovered into the library, deleted or skipped. */
export function RecoveryDialog({ prompt, onDone }: RecoveryDialogProps) {
  // The ids answered so far; a ref as well as state, because the dialog's close event may come after the last answer.
  const answered = useRef(new Set<string>());
  const [, setAnsweredCount] = useState(0);
  const open = prompt.files.filter((file) => !answered.current.has(file.recoveryId));

  const answer = (file: RecoverableFile, action: Answer, gameOverride?: string) => {
    if (answered.current.has(file.recoveryId)) return;
    answered.current.add(file.recoveryId);
    connection.send('RecoveryConfirm', { recoveryId: file.recoveryId, action, ...(gameOverride ? { gameOverride } : {}) });
    setAnsweredCount(answered.current.size);
    if (answered.current.size >= prompt.files.length) onDone();
  };
  // Closing the dialog skips what is left: those files are asked about again at the next start.
  const skipRest = () => {
    for (const file of prompt.files) answer(file, 'skip');
    if (prompt.files.length === 0) onDone();
  };

  return (
    <ModalFrame
      title="Recover videos"
      subtitle={`${prompt.totalCount === 1 ? '1 video was' : `${prompt.totalCount} videos were`} left unfinished, probably by a crash.`}
      className="modal--warning recovery"
      testId="recovery-prompt"
      onClose={skipRest}
    >
      <ul className="recovery__list">
        {open.map((file) => (
          <RecoveryRow key={file.recoveryId} file={file} onAnswer={(action, game) => answer(file, action, game)} />
        ))}
      </ul>
      <div className="modal__actions">
        <button type="button" className="button" onClick={skipRest}>
          Skip all
        </button>
      </div>
    </ModalFrame>
  );
}

function RecoveryRow({ file, onAnswer }: { file: RecoverableFile; onAnswer: (action: Answer, gameOverride?: string) => void }) {
  const [game, setGame] = useState(file.detectedGame ?? '');
  return (
    <li className="recovery__item" data-testid="recovery-file">
      <div className="recovery__text">
        <span className="recovery__name">{file.fileName}</span>
        <span className="recovery__meta">
          {file.typeLabel} · {file.fileSize}
        </span>
      </div>
      <input
        className="input input--compact recovery__game"
        aria-label={`Game of ${file.fileName}`}
        placeholder="Game"
        value={game}
        onChange={(event) => setGame(event.target.value)}
      />
      <div className="recovery__actions">
        <button
          type="button"
          className="button button--small button--primary"
          onClick={() => onAnswer('recover', game.trim() || undefined)}
        >
          Recover
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => onAnswer('delete')}>
          Delete
        </button>
        <button type="button" className="button button--small" onClick={() => onAnswer('skip')}>
          Skip
        </button>
      </div>
    </li>
  );
}
