/**
 * A stand-in for the parts of `electron` the main process uses. Requiring the real module without its binary
 * throws, so the wiring tests run against this: each object records what the shell asked of it and lets the
 * test emit the events Electron would.
 */
import { EventEmitter } from "node:events";
import { vi } from "vitest";

type Handler = (...args: unknown[]) => unknown;

export class FakeSession {
  readonly protocolHandlers = new Map<string, Handler>();
  readonly protocol = {
    handle: vi.fn((scheme: string, handler: Handler) => this.protocolHandlers.set(scheme, handler)),
  };
  setPermissionRequestHandler = vi.fn();
  setPermissionCheckHandler = vi.fn();
  setDevicePermissionHandler = vi.fn();
  setDisplayMediaRequestHandler = vi.fn();
  clearStorageData = vi.fn(async () => {});
  clearCache = vi.fn(async () => {});
  constructor(readonly partition: string) {}
}

let nextContentsId = 1;

interface WindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  webPreferences: Record<string, unknown> & { partition?: string; preload?: string };
}

export class FakeWebContents extends EventEmitter {
  /** Whether loadURL commits (and emits did-navigate, as a page that loads does); off to model a cancelled load. */
  static commitLoads = true;
  readonly id = nextContentsId++;
  url = "";
  readonly loads: string[] = [];
  /** Committed history entries, oldest first. */
  readonly history: string[] = [];
  windowOpenHandler: Handler | undefined;
  readonly navigationHistory = {
    canGoBack: vi.fn(() => true),
    goBack: vi.fn(),
    canGoForward: vi.fn(() => false),
    goForward: vi.fn(),
    length: () => this.history.length,
    getEntryAtIndex: (index: number) => (index < this.history.length ? { url: this.history[index]!, title: "" } : null),
    removeEntryAtIndex: vi.fn((index: number) => this.history.splice(index, 1).length === 1),
  };
  reload = vi.fn();
  constructor(readonly session: FakeSession) {
    super();
  }
  loadURL = vi.fn(async (url: string) => {
    this.loads.push(url);
    if (!FakeWebContents.commitLoads) return;
    this.url = url;
    this.history.push(url);
    this.emit("did-navigate", {}, url);
  });
  getURL = () => this.url;
  setWindowOpenHandler(handler: Handler) {
    this.windowOpenHandler = handler;
  }
  /** A frame of this page, as IPC events carry it. */
  frame(url = this.url, parent: unknown = null) {
    return { url, parent };
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static all: FakeBrowserWindow[] = [];
  static focused: FakeBrowserWindow | null = null;
  static getAllWindows = () => FakeBrowserWindow.all.filter((w) => !w.destroyed);
  static getFocusedWindow = () => FakeBrowserWindow.focused;

  readonly webContents: FakeWebContents;
  destroyed = false;
  visible = false;
  maximized = false;
  title = "";
  bounds: { x: number; y: number; width: number; height: number };

  constructor(readonly options: WindowOptions) {
    super();
    const partition = options.webPreferences?.partition ?? "";
    this.webContents = new FakeWebContents(electron.session.fromPartition(partition));
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
    FakeBrowserWindow.all.push(this);
    electron.app.emit("web-contents-created", {}, this.webContents);
  }
  loadURL = (url: string) => this.webContents.loadURL(url);
  show = vi.fn(() => {
    this.visible = true;
  });
  focus = vi.fn(() => {
    FakeBrowserWindow.focused = this;
  });
  isVisible = () => this.visible;
  isMinimized = () => false;
  restore = vi.fn();
  maximize = vi.fn(() => {
    this.maximized = true;
  });
  isMaximized = () => this.maximized;
  isDestroyed = () => this.destroyed;
  getNormalBounds = () => this.bounds;
  setTitle = vi.fn((title: string) => {
    this.title = title;
  });
  close = vi.fn(() => {
    this.emit("close", { preventDefault() {} });
    this.destroy();
  });
  destroy = vi.fn(() => {
    if (this.destroyed) return;
    this.destroyed = true;
    if (FakeBrowserWindow.focused === this) FakeBrowserWindow.focused = null;
    this.emit("closed");
  });
}

class FakeApp extends EventEmitter {
  userData = "";
  isPackaged = false;
  hasLock = true;
  private ready!: () => void;
  private readyPromise!: Promise<void>;
  constructor() {
    super();
    this.reset("");
  }
  reset(userData: string) {
    this.removeAllListeners();
    this.userData = userData;
    this.isPackaged = false;
    this.hasLock = true;
    this.readyPromise = new Promise<void>((resolve) => (this.ready = resolve));
  }
  setPath = vi.fn((name: string, value: string) => {
    if (name === "userData") this.userData = value;
  });
  getPath = vi.fn(() => this.userData);
  getVersion = () => "0.1.0";
  getName = () => "Atrium";
  requestSingleInstanceLock = vi.fn(() => this.hasLock);
  setAsDefaultProtocolClient = vi.fn(() => true);
  setAppUserModelId = vi.fn();
  quit = vi.fn();
  whenReady = () => this.readyPromise;
  /** Electron's `ready`: resolves whenReady and lets its callbacks run. */
  async becomeReady() {
    this.ready();
    await this.readyPromise;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const sessions = new Map<string, FakeSession>();

export const notifications: Array<{ title: string; body: string }> = [];

export const electron = {
  app: new FakeApp(),
  BrowserWindow: FakeBrowserWindow,
  ipcMain: {
    handlers: new Map<string, Handler>(),
    handle: vi.fn((name: string, handler: Handler) => electron.ipcMain.handlers.set(name, handler)),
  },
  Menu: {
    template: null as unknown,
    buildFromTemplate: vi.fn((template: unknown) => ({ template })),
    setApplicationMenu: vi.fn((menu: { template: unknown }) => {
      electron.Menu.template = menu.template;
    }),
  },
  net: { fetch: vi.fn((url: string, init: RequestInit) => fetch(url, init)) },
  protocol: { registerSchemesAsPrivileged: vi.fn() },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  session: {
    defaultSession: undefined as unknown,
    fromPartition: (partition: string) => {
      if (!sessions.has(partition)) sessions.set(partition, new FakeSession(partition));
      return sessions.get(partition)!;
    },
  },
  shell: { openExternal: vi.fn(async () => {}) },
  Notification: class {
    static isSupported = () => true;
    constructor(private readonly options: { title: string; body: string }) {}
    show() {
      notifications.push(this.options);
    }
  },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(async () => undefined) },
};

/** A clean Electron for each test: no windows, no listeners, a new app. */
export function resetElectron(userData: string) {
  electron.app.reset(userData);
  FakeBrowserWindow.all = [];
  FakeWebContents.commitLoads = true;
  FakeBrowserWindow.focused = null;
  electron.ipcMain.handlers.clear();
  sessions.clear();
  notifications.length = 0;
  vi.clearAllMocks();
}
