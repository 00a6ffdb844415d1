export { LibraryPage } from './LibraryPage';
export { LIBRARY_SECTIONS, type LibrarySection } from './content-types';
