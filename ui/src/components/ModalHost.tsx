import type { EventContentMap } from '@keyframe/core/protocol';
import { useRef, useState } from 'react';
import { useServerEvent } from '../connection';
import { ModalDialog } from './ModalDialog';

interface QueuedModal {
  id: number;
  modal: EventContentMap['ShowModal'];
}

/** Shows ShowModal dialogs one at a time, in the order they arrived. */
export function ModalHost() {
  const [queue, setQueue] = useState<QueuedModal[]>([]);
  const nextId = useRef(0);

  useServerEvent('ShowModal', (modal) => {
    const id = nextId.current++;
    setQueue((current) => [...current, { id, modal }]);
  });

  const [first] = queue;
  if (!first) return null;
  return <ModalDialog key={first.id} modal={first.modal} onDismiss={() => setQueue((current) => current.slice(1))} />;
}
