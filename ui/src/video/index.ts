export { VideoPage } from './VideoPage';
