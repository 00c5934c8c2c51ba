/**
 * Bundled by tests/bundle.test.ts and preloaded (`node -r`) before the built main bundle, in place of Electron: `require("electron")` gets a minimal
 * recording stand-in. When the bundle loads its first page, the stub asks the bundle's own app:// handler for
 * that page and its script, prints what it saw as one JSON line, and exits. Checks what the source-level
 * tests cannot: the paths baked into dist/ (preload, renderer folder) and that the bundle boots at all.
 */
import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import Module from "node:module";

type Handler = (request: Request) => Promise<Response>;
interface WindowOptions {
  webPreferences: { partition?: string; preload?: string };
}

const seen = { windows: [] as WindowOptions[], channels: [] as string[], schemes: [] as string[] };
const handlers = new Map<string, Handler>();

class Session {
  protocol = { handle: (scheme: string, handler: Handler) => handlers.set(scheme, handler) };
  setPermissionRequestHandler() {}
  setPermissionCheckHandler() {}
  setDevicePermissionHandler() {}
  setDisplayMediaRequestHandler() {}
}
const sessions = new Map<string, Session>();
const fromPartition = (partition: string) => {
  if (!sessions.has(partition)) sessions.set(partition, new Session());
  return sessions.get(partition)!;
};

class WebContents extends EventEmitter {
  navigationHistory = { length: () => 0 };
  constructor(readonly session: Session) {
    super();
  }
  setWindowOpenHandler() {}
  getURL() {
    return "";
  }
  async loadURL(url: string) {
    const handler = handlers.get(new URL(url).protocol.replace(":", ""));
    const page = handler ? await handler(new Request(url)) : null;
    const script = handler ? await handler(new Request(new URL("picker.js", url).href)) : null;
    const preload = seen.windows[0]?.webPreferences.preload;
    process.stdout.write(
      `${JSON.stringify({
        ...seen,
        url,
        preloadExists: typeof preload === "string" && existsSync(preload),
        page: page && {
          status: page.status,
          csp: page.headers.get("content-security-policy"),
          body: await page.text(),
        },
        script: script && { status: script.status, type: script.headers.get("content-type") },
      })}\n`,
    );
    process.exit(0);
  }
}

class BrowserWindow extends EventEmitter {
  webContents: WebContents;
  static getAllWindows() {
    return [];
  }
  static getFocusedWindow() {
    return null;
  }
  constructor(options: WindowOptions) {
    super();
    seen.windows.push(options);
    this.webContents = new WebContents(fromPartition(options.webPreferences.partition ?? ""));
  }
  loadURL(url: string) {
    return this.webContents.loadURL(url);
  }
  isDestroyed() {
    return false;
  }
}

const app = Object.assign(new EventEmitter(), {
  isPackaged: true,
  setPath() {},
  getPath: () => process.env.STUB_USER_DATA,
  getVersion: () => "0.1.0",
  getName: () => "Atrium",
  requestSingleInstanceLock: () => true,
  setAsDefaultProtocolClient() {},
  setAppUserModelId() {},
  quit() {},
  whenReady: () => Promise.resolve(),
});

const electron = {
  app,
  BrowserWindow,
  ipcMain: { handle: (name: string) => seen.channels.push(name) },
  Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu() {} },
  net: { fetch },
  protocol: {
    registerSchemesAsPrivileged: (schemes: Array<{ scheme: string }>) =>
      seen.schemes.push(...schemes.map((s) => s.scheme)),
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  session: { fromPartition },
  shell: { openExternal: async () => {} },
  Notification: class {
    static isSupported() {
      return false;
    }
  },
};

// Node's CommonJS loader, reached the documented-by-practice way: resolve "electron" to a cached module.
const loader = Module as unknown as {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  _cache: Record<string, unknown>;
};
const resolve = loader._resolveFilename;
loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  return request === "electron" ? "electron-stub" : resolve.call(this, request, ...rest);
};
loader._cache["electron-stub"] = { id: "electron-stub", filename: "electron-stub", loaded: true, exports: electron };
