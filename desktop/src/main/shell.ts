/**
 * The shell's state: which deployment each window shows, the picker, deep links, the offline page. Electron
 * objects come in through `electron` (mocked in the wiring tests); the decisions it applies live in the
 * policy modules beside it.
 */
import { BrowserWindow, Notification, session, type WebContents } from "electron";
import { SHELL_ORIGIN } from "../shared/channel-names";
import type { Deployment, Outcome, ProbeSuccess } from "../shared/ipc";
import { serveShellPages } from "./app-protocol";
import { deepLinkFromArgv, deepLinkTarget, parseDeepLink } from "./deep-links";
import { partitionFor, type DeploymentsStore } from "./deployments-store";
import { originOf, type Handlers, type WindowRole } from "./ipc";
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
  /** The console page last asked for or last failed, so Retry on the offline page goes back to it. */
  lastUrl: string;
  /** Showing the offline page: Retry applies, and the first page that loads again clears it. */
  offline: boolean;
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
      if (path !== "/" || current.offline) this.load(current, target);
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
    // Forgetting a deployment forgets its sign-in, and the pages it cached, too.
    const storage = session.fromPartition(partitionFor(removed.value));
    void Promise.all([storage.clearStorageData(), storage.clearCache()]).catch((error: unknown) =>
      this.options.log(`could not clear ${removed.value.name}'s storage: ${String(error)}`),
    );
    return { ok: true, value: null };
  }

  /** Which window a message came from, for IPC sender checks. */
  roleOf(contents: WebContents): WindowRole {
    if (this.picker && !this.picker.isDestroyed() && this.picker.webContents === contents) return { kind: "picker" };
    const entry = this.entryFor(contents);
    return entry ? { kind: "deployment", origin: entry.deployment.origin } : undefined;
  }

  /**
   * The offline page's Retry (pressed, or its timer). The deployment is asked first: loading a page that
   * still fails would add two history entries (the error page and the offline page) each time.
   */
  async retry(contents: WebContents): Promise<Outcome<null>> {
    const entry = this.entryFor(contents);
    if (!entry || !entry.offline) return { ok: true, value: null };
    const answer = await this.options.probe(entry.deployment.origin);
    if (!answer.ok) return answer;
    this.load(entry, entry.lastUrl);
    return { ok: true, value: null };
  }

  handlers(): Handlers {
    const { store, probe, appVersion } = this.options;
    return {
      appVersion: () => appVersion,
      switchDeployment: () => this.showPicker(),
      notify: (sender, { title, body }) => {
        // Named after the deployment, so a notice cannot pass for another deployment's or the system's.
        const from = this.entryFor(sender)?.deployment.name;
        if (from && Notification.isSupported()) new Notification({ title: `${from}: ${title}`, body }).show();
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
        if (entry) this.load(entry, entry.offline ? entry.lastUrl : null);
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
    const entry: OpenDeployment = { deployment, window, lastUrl: target, offline: false };
    this.open.set(deployment.id, entry);
    const contents = window.webContents;
    applyPermissionPolicy(contents.session, deployment.origin);
    serveShellPages(contents.session, rendererRoot);
    /** Whether any page has been shown in this window yet (set on did-navigate below). */
    let committed = false;
    confineNavigation(contents, deployment.origin, {
      openExternal: (url) => {
        this.options.openExternal(url);
        // The very first load sent elsewhere (an SSO proxy on another host, say): the window has nothing to
        // show, and a cancelled navigation reports no failure, so say what happened instead of a blank window.
        if (!committed)
          this.showOffline(entry, `it sent this window to ${originOf(url) ?? url}, opened in your browser`);
      },
      refused: (url, kind) => this.options.log(`refused ${kind} to ${url} from ${deployment.name}`),
    });
    contents.on("did-fail-load", (_event, code, description, url, isMainFrame) => {
      if (!isMainFrame || code === ERR_ABORTED || url.startsWith(SHELL_ORIGIN)) return;
      // Retry returns to the page that failed, also when the console itself navigated there.
      if (originOf(url) === deployment.origin) entry.lastUrl = url;
      this.showOffline(entry, description);
    });
    contents.on("did-navigate", (_event, url) => {
      committed = true;
      if (!entry.offline || originOf(url) !== deployment.origin) return;
      // Back again: the offline pages in between are dropped, so Back leads to the console, not to them.
      entry.offline = false;
      const history = contents.navigationHistory;
      for (let index = history.length() - 1; index >= 0; index -= 1) {
        if (history.getEntryAtIndex(index)?.url.startsWith(SHELL_ORIGIN)) history.removeEntryAtIndex(index);
      }
    });
    contents.on("render-process-gone", (_event, details) => {
      // Not when the offline page itself is what stopped: that would reload it for ever.
      if (details.reason !== "clean-exit" && !entry.offline) {
        this.showOffline(entry, `the page stopped (${details.reason})`);
      }
    });
    window.on("page-title-updated", (event, title) => {
      event.preventDefault();
      window.setTitle(title ? `${title} — ${entry.deployment.name}` : `Atrium — ${entry.deployment.name}`);
    });
    window.once("ready-to-show", () => window.show());
    // ready-to-show never comes for a window whose first load was cancelled; it must not stay invisible.
    contents.once("did-stop-loading", () => {
      if (!window.isDestroyed() && !window.isVisible()) window.show();
    });
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
    if (entry.window.isDestroyed()) return;
    entry.offline = true;
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
