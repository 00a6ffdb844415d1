// The one queue of library item edits of a running service, keyed by item id (stable across renames).
import { KeyedQueue } from '../support/keyed-queue.js';

export class ContentItemQueue extends KeyedQueue {}
