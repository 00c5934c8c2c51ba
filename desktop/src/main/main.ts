/**
 * Main-process entry: wires Electron to the shell. Everything here runs once; what it decides lives in the
 * modules it imports, which the tests drive with `electron` mocked.
 */
import { join, resolve } from "node:path";
import { app, BrowserWindow, ipcMain, Menu, net, protocol, shell as desktop } from "electron";
import { APP_ID } from "../shared/app-identity";
import { SHELL_SCHEME } from "../shared/channel-names";
import { DEEP_LINK_SCHEME } from "./deep-links";
import { probeDeployment } from "./deployment-probe";
import { openDeploymentsStore } from "./deployments-store";
import { registerIpc } from "./ipc";
import { buildMenuTemplate } from "./menu";
import { DesktopShell } from "./shell";

const log = (message: string) => console.warn(`[atrium-desktop] ${message}`);

/** Separate profiles for tests and side-by-side installs; documented in the README. */
export function applyUserDataOverride(env: NodeJS.ProcessEnv = process.env): void {
  const dir = env.ATRIUM_DESKTOP_USER_DATA;
  if (dir) app.setPath("userData", resolve(dir));
}

export function main(): DesktopShell | null {
  applyUserDataOverride();
  // Must precede `ready`: app:// gets a real origin (standard), counts as secure, and may serve module scripts.
  protocol.registerSchemesAsPrivileged([
    { scheme: SHELL_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // Windows ties notifications and taskbar grouping to this id; it must match the installer's shortcut.
  if (process.platform === "win32") app.setAppUserModelId(APP_ID);
  // From source (`electron .`) the OS must be told how to start us with the link as an argument.
  if (process.defaultApp && process.argv[1]) {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
  } else {
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }

  // A baseline for every web contents, whichever window made it: no new windows, no <webview>.
  app.on("web-contents-created", (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: "deny" }));
    contents.on("will-attach-webview", (event) => event.preventDefault());
  });

  const shell = new DesktopShell({
    store: openDeploymentsStore(join(app.getPath("userData"), "deployments.json"), log),
    preload: join(__dirname, "../preload/preload.js"),
    rendererRoot: join(__dirname, "../renderer"),
    appVersion: app.getVersion(),
    probe: (url) => probeDeployment(url, (input, init) => net.fetch(input, init)),
    openExternal: (url) => void desktop.openExternal(url).catch((error: unknown) => log(String(error))),
    log,
  });

  // macOS delivers links as an event, possibly before `ready`; Windows and Linux start a second instance.
  let ready = false;
  const earlyLinks: string[] = [];
  app.on("open-url", (event, url) => {
    event.preventDefault();
    if (ready) shell.openDeepLink(url);
    else earlyLinks.push(url);
  });
  app.on("second-instance", (_event, argv) => shell.secondInstance(argv));
  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
  app.on("activate", () => {
    // macOS keeps the app running with no windows; clicking the dock icon brings the picker back.
    if (ready && BrowserWindow.getAllWindows().length === 0) shell.showPicker();
  });

  void app.whenReady().then(() => {
    ready = true;
    registerIpc(ipcMain, shell.handlers(), {
      roleOf: (contents) => shell.roleOf(contents),
      refused: (channel, reason, frameUrl) =>
        log(`refused IPC ${channel} (${reason}) from ${frameUrl ?? "a gone frame"}`),
    });
    const template = buildMenuTemplate({
      appName: app.getName(),
      platform: process.platform,
      isPackaged: app.isPackaged,
      actions: shell.menuActions(),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
    const link = earlyLinks.pop();
    if (link) shell.openDeepLink(link);
    else shell.start(process.argv);
  });
  return shell;
}

// Loaded by Electron: run. Imported by a test: the test calls main() itself.
if (!process.env.VITEST) main();
