// The toasts on screen, newest last: what succeeded or failed, with at most one follow-up link each.
import { useSyncExternalStore } from 'react';

export type ToastTone = 'success' | 'failure';

/** Where a toast's one button leads: a page of the app, or a web address (opened in a new tab). */
export interface ToastLink {
  label: string;
  href: string;
  external?: boolean;
}

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
  link?: ToastLink;
  /** A new toast with the same key takes the place of this one (repeated bookmarks make one toast). */
  key?: string;
}

/** More than this and the oldest goes. */
const MAX_TOASTS = 4;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast and returns its id. */
export function showToast(toast: Omit<Toast, 'id'>): number {
  const id = nextId++;
  const others = toast.key === undefined ? toasts : toasts.filter((shown) => shown.key !== toast.key);
  publish([...others, { ...toast, id }].slice(-MAX_TOASTS));
  return id;
}

/** Gives a toast still on screen its link (known only once the State lists the new item). */
export function linkToast(id: number, link: ToastLink): void {
  if (toasts.some((toast) => toast.id === id)) publish(toasts.map((toast) => (toast.id === id ? { ...toast, link } : toast)));
}

export function dismissToast(id: number): void {
  if (toasts.some((toast) => toast.id === id)) publish(toasts.filter((toast) => toast.id !== id));
}

/** The toast with that key still on screen, if any. */
export function shownToast(key: string): Toast | undefined {
  return toasts.find((toast) => toast.key === key);
}

export function isShown(id: number): boolean {
  return toasts.some((toast) => toast.id === id);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}
