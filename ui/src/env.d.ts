/// <reference types="vite/client" />

/** ui/package.json's version, set by Vite at build time. */
declare const __APP_VERSION__: string;
