/**
 * The shell's state: which deployment each window shows, the picker, deep links, the offline page. Electron
 * objects come in through `electron` (mocked in the wiring tests); the decisions it applies live in the
 * policy modules beside it.
 */
import { BrowserWindow, Notification, session, type WebContents } from "electron";
import { SHELL_ORIGIN, type Deployment, type Outcome, type ProbeSuccess } from "../shared/ipc";
import { serveShellPages } from "./app-protocol";
import { deepLinkFromArgv, deepLinkTarget, parseDeepLink } from "./deep-links";
import { partitionFor, type DeploymentsStore } from "./deployments-store";
import type { Handlers } from "./ipc";
import type { MenuActions } from "./menu";
import { confineNavigation, decideNavigation } from "./navigation-policy";
import { applyPermissionPolicy } from "./permissions";
import { createDeploymentWindow, createPickerWindow, windowStateOf } from "./windows";

export interface ShellOptions {
  store: DeploymentsStore;
  /** Built preload script and renderer folder. */
  preload: string;
  rendererRoot: string;
  appVersion: string;
  probe(url: string): Promise<Outcome<ProbeSuccess>>;
  openExternal(url: string): void;
  log(message: string): void;
}

/** Chromium's ERR_ABORTED: a navigation replaced by another one, not a failure to show. */
const ERR_ABORTED = -3;

interface OpenDeployment {
  deployment: Deployment;
  window: BrowserWindow;
  /** The console page last asked for, so Retry on the offline page goes back to it. */
  lastUrl: string;
}

export class DesktopShell {
  private picker: BrowserWindow | null = null;
  private readonly open = new Map<string, OpenDeployment>();
  private notice: string | null = null;

  constructor(private readonly options: ShellOptions) {}

  /** First launch: a deep link from the command line, else the last deployment used, else the picker. */
  start(argv: readonly string[]): void {
    const link = deepLinkFromArgv(argv);
    if (link) return void this.openDeepLink(link);
    const last = this.options.store.lastOpened();
    if (last) this.openDeployment(last.id);
    else this.showPicker();
  }

  /** Another launch (a clicked link on Windows/Linux) reaches the running instance instead. */
  secondInstance(argv: readonly string[]): void {
    const link = deepLinkFromArgv(argv);
    if (link) return void this.openDeepLink(link);
    const window = BrowserWindow.getFocusedWindow() ?? [...this.open.values()][0]?.window ?? this.picker;
    if (window) focus(window);
    else this.showPicker();
  }

  openDeepLink(url: string): void {
    const parsed = parseDeepLink(url);
    if (!parsed.ok) return this.showPicker(`That atrium:// link could not be opened: ${parsed.error}`);
    const deployment = this.options.store.byName(parsed.link.deployment);
    if (!deployment) {
      return this.showPicker(
        `The link asked for a deployment named "${parsed.link.deployment}", which is not saved here. Add it, then open the link again.`,
      );
    }
    this.openDeployment(deployment.id, parsed.link.path);
  }

  showPicker(notice?: string): void {
    if (notice) {
      this.options.log(notice);
      this.notice = notice;
    }
    if (this.picker && !this.picker.isDestroyed()) {
      // Reloading refreshes the list and shows any new notice.
      this.picker.webContents.reload();
      return focus(this.picker);
    }
    const picker = createPickerWindow(this.options.preload);
    serveShellPages(picker.webContents.session, this.options.rendererRoot);
    // The picker is the shell's own page: it goes nowhere else.
    picker.webContents.on("will-navigate", (event) => event.preventDefault());
    picker.once("ready-to-show", () => picker.show());
    picker.on("closed", () => {
      if (this.picker === picker) this.picker = null;
    });
    this.picker = picker;
    void picker.loadURL(`${SHELL_ORIGIN}/picker.html`);
  }

  openDeployment(id: string, path = "/"): Outcome<null> {
    const deployment = this.options.store.get(id);
    if (!deployment) return { ok: false, error: "That deployment is no longer saved." };
    const target = deepLinkTarget(deployment.origin, path);
    if (!target) return { ok: false, error: `"${path}" is not a page of ${deployment.name}.` };
    const current = this.open.get(id);
    if (current && !current.window.isDestroyed()) {
      if (path !== "/" || current.window.webContents.getURL().startsWith(SHELL_ORIGIN)) this.load(current, target);
      focus(current.window);
    } else {
      this.createWindow(deployment, target);
    }
    this.options.store.markOpened(id);
    if (this.picker && !this.picker.isDestroyed()) this.picker.close();
    return { ok: true, value: null };
  }

  removeDeployment(id: string): Outcome<null> {
    const removed = this.options.store.remove(id);
    if (!removed.ok) return removed;
    const current = this.open.get(id);
    if (current && !current.window.isDestroyed()) current.window.destroy();
    this.open.delete(id);
    // Forgetting a deployment forgets its sign-in too.
    void session
      .fromPartition(partitionFor(removed.value))
      .clearStorageData()
      .catch((error: unknown) => this.options.log(`could not clear ${removed.value.name}'s storage: ${String(error)}`));
    return { ok: true, value: null };
  }

  /** The deployment origin a window's contents belong to, for IPC sender checks. */
  consoleOriginOf(contents: WebContents): string | undefined {
    return this.entryFor(contents)?.deployment.origin;
  }

  retry(contents: WebContents): void {
    const entry = this.entryFor(contents);
    if (entry) this.load(entry, entry.lastUrl);
  }

  handlers(): Handlers {
    const { store, probe, appVersion } = this.options;
    return {
      appVersion: () => appVersion,
      switchDeployment: () => this.showPicker(),
      notify: (_sender, { title, body }) => {
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
      listDeployments: () => store.list(),
      probeDeployment: (_sender, url) => probe(url),
      addDeployment: async (_sender, { name, url }) => {
        const checked = await probe(url);
        if (!checked.ok) return checked;
        return store.add({ name, url: checked.value.origin, version: checked.value.version });
      },
      renameDeployment: (_sender, { id, name }) => {
        const renamed = store.rename(id, name);
        const entry = this.open.get(id);
        if (renamed.ok && entry) entry.deployment = renamed.value;
        return renamed;
      },
      removeDeployment: (_sender, id) => this.removeDeployment(id),
      openDeployment: (_sender, id) => this.openDeployment(id),
      retry: (sender) => this.retry(sender),
      pickerNotice: () => {
        const notice = this.notice;
        this.notice = null;
        return notice;
      },
    };
  }

  menuActions(): MenuActions {
    const focused = () => {
      const window = BrowserWindow.getFocusedWindow();
      return window ? [...this.open.values()].find((entry) => entry.window === window) : undefined;
    };
    return {
      switchDeployment: () => this.showPicker(),
      openInBrowser: () => {
        const entry = focused();
        const url = entry?.window.webContents.getURL();
        if (entry && url && decideNavigation(url, entry.deployment.origin) === "allow") this.options.openExternal(url);
      },
      reload: () => {
        const entry = focused();
        if (entry) this.load(entry, entry.window.webContents.getURL().startsWith(SHELL_ORIGIN) ? entry.lastUrl : null);
        else BrowserWindow.getFocusedWindow()?.webContents.reload();
      },
      back: () => {
        const history = focused()?.window.webContents.navigationHistory;
        if (history?.canGoBack()) history.goBack();
      },
      forward: () => {
        const history = focused()?.window.webContents.navigationHistory;
        if (history?.canGoForward()) history.goForward();
      },
    };
  }

  private createWindow(deployment: Deployment, target: string): void {
    const { store, preload, rendererRoot } = this.options;
    const window = createDeploymentWindow(deployment, preload, store.windowState(deployment.id));
    const entry: OpenDeployment = { deployment, window, lastUrl: target };
    this.open.set(deployment.id, entry);
    const contents = window.webContents;
    applyPermissionPolicy(contents.session, deployment.origin);
    serveShellPages(contents.session, rendererRoot);
    confineNavigation(contents, deployment.origin, {
      openExternal: (url) => this.options.openExternal(url),
      refused: (url, kind) => this.options.log(`refused ${kind} to ${url} from ${deployment.name}`),
    });
    contents.on("did-fail-load", (_event, code, description, url, isMainFrame) => {
      if (!isMainFrame || code === ERR_ABORTED || url.startsWith(SHELL_ORIGIN)) return;
      this.showOffline(entry, description);
    });
    contents.on("render-process-gone", (_event, details) => {
      if (details.reason !== "clean-exit") this.showOffline(entry, `the page stopped (${details.reason})`);
    });
    window.on("page-title-updated", (event, title) => {
      event.preventDefault();
      window.setTitle(title ? `${title} — ${entry.deployment.name}` : `Atrium — ${entry.deployment.name}`);
    });
    window.once("ready-to-show", () => window.show());
    window.on("close", () => store.saveWindowState(deployment.id, windowStateOf(window)));
    window.on("closed", () => {
      if (this.open.get(deployment.id) === entry) this.open.delete(deployment.id);
    });
    this.load(entry, target);
  }

  /** Loads a console URL (null: the current page again) and remembers it for Retry. */
  private load(entry: OpenDeployment, url: string | null): void {
    if (url === null) return entry.window.webContents.reload();
    entry.lastUrl = url;
    // Failures surface through did-fail-load, which shows the offline page.
    entry.window.loadURL(url).catch(() => {});
  }

  private showOffline(entry: OpenDeployment, reason: string): void {
    const query = new URLSearchParams({ name: entry.deployment.name, origin: entry.deployment.origin, reason });
    entry.window.loadURL(`${SHELL_ORIGIN}/offline.html?${query}`).catch(() => {});
    if (!entry.window.isVisible()) entry.window.show();
  }

  private entryFor(contents: WebContents): OpenDeployment | undefined {
    return [...this.open.values()].find(
      (entry) => !entry.window.isDestroyed() && entry.window.webContents === contents,
    );
  }
}

function focus(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
