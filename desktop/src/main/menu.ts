/**
 * The application menu. Actions that need the shell (switching deployment, opening the page in the browser,
 * history) are passed in, so the template is a plain value the tests can read and click.
 */
import type { MenuItemConstructorOptions } from "electron";

export interface MenuActions {
  switchDeployment(): void;
  openInBrowser(): void;
  reload(): void;
  back(): void;
  forward(): void;
}

export interface MenuOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** Developer tools are offered only when running from source, never in an installed build. */
  isPackaged: boolean;
  actions: MenuActions;
}

export function buildMenuTemplate({
  appName,
  platform,
  isPackaged,
  actions,
}: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === "darwin";
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: "about" },
        { type: "separator" },
        { role: "hide" },
        { role: "hideOthers" },
        { role: "unhide" },
        { type: "separator" },
        { role: "quit" },
      ],
    });
  }
  template.push(
    {
      label: "&File",
      submenu: [
        {
          id: "switch-deployment",
          label: "Switch Deployment…",
          accelerator: "CmdOrCtrl+Shift+O",
          click: () => actions.switchDeployment(),
        },
        {
          id: "open-in-browser",
          label: "Open Page in Browser",
          accelerator: "CmdOrCtrl+Shift+B",
          click: () => actions.openInBrowser(),
        },
        { type: "separator" },
        mac ? { role: "close" } : { role: "quit" },
      ],
    },
    { role: "editMenu" },
    {
      label: "&View",
      submenu: [
        { id: "reload", label: "Reload", accelerator: "CmdOrCtrl+R", click: () => actions.reload() },
        { id: "back", label: "Back", accelerator: mac ? "Cmd+[" : "Alt+Left", click: () => actions.back() },
        { id: "forward", label: "Forward", accelerator: mac ? "Cmd+]" : "Alt+Right", click: () => actions.forward() },
        { type: "separator" },
        { role: "resetZoom" },
        { role: "zoomIn" },
        { role: "zoomOut" },
        { type: "separator" },
        { role: "togglefullscreen" },
        ...(isPackaged ? [] : [{ type: "separator" as const }, { role: "toggleDevTools" as const }]),
      ],
    },
    { role: "windowMenu" },
  );
  return template;
}
