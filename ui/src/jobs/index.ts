export { JobsTray } from './JobsTray';
