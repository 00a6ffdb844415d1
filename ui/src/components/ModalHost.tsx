import { useEventQueue } from '../connection';
import { ModalDialog } from './ModalDialog';

/** Shows ShowModal dialogs one at a time, in the order they arrived. */
export function ModalHost() {
  const [queue, remove] = useEventQueue('ShowModal');
  const [first] = queue;
  if (!first) return null;
  return <ModalDialog key={first.id} modal={first.content} onDismiss={() => remove(first.id)} />;
}
