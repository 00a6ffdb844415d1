export { JobsTray } from './JobsTray';
export type { JobOutput } from './jobs-store';
