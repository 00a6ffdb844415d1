export { DEFAULT_ROUTE, SETTINGS_TABS, navigate, parseRoute, routeHref, type Route, type SettingsTab } from './routes';
export { useRoute } from './use-route';
