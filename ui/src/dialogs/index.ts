export { DialogHost } from './DialogHost';
export { ReleaseNotesList } from './ReleaseNotesList';
