// @keyframe/desktop: the thin desktop layer around the service and the web UI (issue 25).
export {};
