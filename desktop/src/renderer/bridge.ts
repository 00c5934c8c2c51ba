import type { DesktopApi } from "../shared/ipc";

/** What the preload put on the page; the shell's pages run nowhere else. */
export const desktop = (window as unknown as { atriumDesktop: DesktopApi }).atriumDesktop;

export function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from the page`);
  return found as T;
}
