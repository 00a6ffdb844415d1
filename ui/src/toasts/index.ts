export { Toasts } from './Toasts';
