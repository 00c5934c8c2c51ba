/**
 * The main process as Electron would run it, with `electron` replaced by tests/fakes/electron.ts: start-up,
 * the picker, adding a deployment against a real HTTP server, windows and their partitions, navigation and
 * IPC as wired, the offline page, deep links, window memory, removal.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir, type TempDir } from "../../tests/helpers/temp";
import { CHANNEL_NAMES } from "../src/shared/channel-names";
import { electron, FakeBrowserWindow, FakeWebContents, notifications, resetElectron } from "./fakes/electron";

vi.mock("electron", async () => (await import("./fakes/electron")).electron);
const { main } = await import("../src/main/main");

let server: Server;
let origin: string;
/** While true, the server drops every connection: the deployment is down. */
let down = false;
beforeAll(async () => {
  // An Atrium server as far as the shell can tell: the health body, and a page.
  server = createServer((request, response) => {
    if (down) return request.socket.destroy();
    if (request.url === "/api/health") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ status: "ok", service: "atrium", version: "0.1.0", database: "ok" }));
    } else {
      response.writeHead(200, { "content-type": "text/html" }).end("<title>Atrium</title>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

let userData: TempDir;
beforeEach(() => {
  userData = tempDir("atrium-desktop-main");
  resetElectron(userData.path);
  down = false;
});
afterEach(() => userData.remove());

async function started(argv: string[] = ["electron", "."]) {
  const previous = process.argv;
  process.argv = argv;
  try {
    const shell = main();
    await electron.app.becomeReady();
    return shell;
  } finally {
    process.argv = previous;
  }
}

const windows = () => FakeBrowserWindow.getAllWindows();
const picker = () => windows().find((w) => w.webContents.url.startsWith("app://shell/picker.html"));
const deploymentWindows = () => windows().filter((w) => w.options.webPreferences.partition);

/** Calls an IPC channel as a page would: from the top frame of `contents`, at its current URL. */
function invoke(contents: FakeWebContents, channel: string, ...args: unknown[]) {
  const handler = electron.ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return handler({ sender: contents, senderFrame: contents.frame() }, ...args);
}

async function addAndOpen(name: string, url = origin) {
  const added = (await invoke(picker()!.webContents, CHANNEL_NAMES.addDeployment, { name, url })) as {
    ok: boolean;
    value: { id: string };
  };
  expect(added).toMatchObject({ ok: true });
  expect(await invoke(picker()!.webContents, CHANNEL_NAMES.openDeployment, added.value.id)).toEqual({
    ok: true,
    value: null,
  });
  return { id: added.value.id, window: deploymentWindows().at(-1)! };
}

describe("start-up", () => {
  it("registers app:// as a secure standard scheme before ready, takes the single-instance lock, claims atrium://", async () => {
    // Run from source (`electron .`), the OS must be told to start Electron with the app's folder.
    Object.defineProperty(process, "defaultApp", { value: true, configurable: true });
    try {
      await started(["electron", "."]);
    } finally {
      delete (process as { defaultApp?: boolean }).defaultApp;
    }
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electron.app.setAsDefaultProtocolClient).toHaveBeenCalledWith("atrium", process.execPath, [process.cwd()]);
  });

  it("a second copy hands over and quits without opening a window", async () => {
    electron.app.hasLock = false;
    expect(main()).toBeNull();
    expect(electron.app.quit).toHaveBeenCalled();
    await electron.app.becomeReady();
    expect(windows()).toHaveLength(0);
  });

  it("the first run opens the deployment picker in a hardened window, with the menu and every IPC channel", async () => {
    await started();
    expect(windows()).toHaveLength(1);
    const window = picker()!;
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(window.options.webPreferences.preload).toMatch(/preload[/\\]preload\.js$/);
    expect(window.webContents.session.protocolHandlers.has("app")).toBe(true);
    window.emit("ready-to-show");
    expect(window.visible).toBe(true);
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual(Object.values(CHANNEL_NAMES).sort());
    expect(electron.Menu.setApplicationMenu).toHaveBeenCalled();
    // From source, developer tools are in the View menu.
    expect(JSON.stringify(electron.Menu.template)).toContain("toggleDevTools");
  });

  it("every web contents is denied new windows and <webview> from birth", async () => {
    await started();
    const contents = picker()!.webContents;
    expect(contents.windowOpenHandler!({ url: "https://example.com" })).toEqual({ action: "deny" });
    const attach = { preventDefault: vi.fn() };
    contents.emit("will-attach-webview", attach);
    expect(attach.preventDefault).toHaveBeenCalled();
    const navigate = { preventDefault: vi.fn(), url: "https://example.com/" };
    contents.emit("will-navigate", navigate);
    expect(navigate.preventDefault).toHaveBeenCalled();
  });

  it("ATRIUM_DESKTOP_USER_DATA gives a separate profile", async () => {
    vi.stubEnv("ATRIUM_DESKTOP_USER_DATA", join(userData.path, "profile-b"));
    try {
      await started();
      expect(electron.app.setPath).toHaveBeenCalledWith("userData", join(userData.path, "profile-b"));
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("deployments", () => {
  it("adding checks /api/health over the network and refuses what is not Atrium", async () => {
    await started();
    const page = picker()!.webContents;
    const refused = await invoke(page, CHANNEL_NAMES.addDeployment, { name: "Nope", url: "http://localhost:1" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("Could not reach http://localhost:1") });
    expect(await invoke(page, CHANNEL_NAMES.addDeployment, { name: "Web", url: "http://example.com" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Plain http is only allowed"),
    });
    expect(await invoke(page, CHANNEL_NAMES.listDeployments)).toEqual([]);
    const added = await invoke(page, CHANNEL_NAMES.addDeployment, { name: "Local", url: origin });
    expect(added).toMatchObject({ ok: true, value: { name: "Local", origin, version: "0.1.0" } });
    expect(await invoke(page, CHANNEL_NAMES.listDeployments)).toHaveLength(1);
  });

  it("opening one gives it a window of its own partition at its origin, confined to it, and closes the picker", async () => {
    await started();
    const pickerWindow = picker()!;
    const { id, window } = await addAndOpen("Local");
    expect(window.options.webPreferences).toMatchObject({
      partition: `persist:deployment-${id}`,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(window.webContents.loads).toEqual([`${origin}/`]);
    expect(pickerWindow.destroyed).toBe(true);

    // Navigation as wired: inside stays, a web link goes to the system browser, other schemes are refused.
    const inside = { preventDefault: vi.fn(), url: `${origin}/settings/sops` };
    window.webContents.emit("will-navigate", inside);
    expect(inside.preventDefault).not.toHaveBeenCalled();
    const web = { preventDefault: vi.fn(), url: "https://docs.example.com/" };
    window.webContents.emit("will-navigate", web);
    expect(web.preventDefault).toHaveBeenCalled();
    expect(electron.shell.openExternal).toHaveBeenCalledWith("https://docs.example.com/");
    const file = { preventDefault: vi.fn(), url: "file:///etc/passwd" };
    window.webContents.emit("will-navigate", file);
    expect(file.preventDefault).toHaveBeenCalled();
    expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
    expect(window.webContents.windowOpenHandler!({ url: "https://example.com/" })).toEqual({ action: "deny" });

    // Permissions: the deployment's session answers with the allow list for its own origin only.
    const session = window.webContents.session;
    const check = session.setPermissionCheckHandler.mock.calls[0]![0];
    expect(check(null, "clipboard-sanitized-write", origin)).toBe(true);
    expect(check(null, "media", origin)).toBe(false);
    expect(check(null, "clipboard-sanitized-write", "https://evil.example")).toBe(false);

    // The title names the deployment, whatever the page calls itself.
    const titled = { preventDefault: vi.fn() };
    window.emit("page-title-updated", titled, "SOPs");
    expect(window.title).toBe("SOPs — Local");
  });

  it("two deployments never share a session partition", async () => {
    const second = createServer((_request, response) =>
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status: "ok", service: "atrium", version: "0.2.0", database: "ok" })),
    );
    await new Promise<void>((resolve) => second.listen(0, "localhost", resolve));
    try {
      await started();
      const a = await addAndOpen("A");
      electron.app.emit("second-instance", {}, []); // nothing to open: focuses a window
      invoke(a.window.webContents, CHANNEL_NAMES.switchDeployment);
      const b = await addAndOpen("B", `http://localhost:${(second.address() as AddressInfo).port}`);
      expect(a.window.options.webPreferences.partition).not.toBe(b.window.options.webPreferences.partition);
      expect(a.window.webContents.session).not.toBe(b.window.webContents.session);
    } finally {
      second.close();
    }
  });

  it("IPC: the console may ask for the version, switch and notify, but never touch the deployment list", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    const page = window.webContents;
    expect(await invoke(page, CHANNEL_NAMES.appVersion)).toBe("0.1.0");
    await invoke(page, CHANNEL_NAMES.notify, { title: "New order", body: "#1042" });
    // Named after the deployment, so a console cannot pass its notice off as another's.
    expect(notifications).toEqual([{ title: "Local: New order", body: "#1042" }]);
    expect(() => invoke(page, CHANNEL_NAMES.listDeployments)).toThrow(/not allowed/);
    expect(() => invoke(page, CHANNEL_NAMES.removeDeployment, "x")).toThrow(/not allowed/);
    // A page the console navigated to elsewhere (were it allowed) would not pass either.
    page.url = "https://evil.example/";
    expect(() => invoke(page, CHANNEL_NAMES.appVersion)).toThrow(/not allowed/);
    page.url = `${origin}/`;
    await invoke(page, CHANNEL_NAMES.switchDeployment);
    expect(picker()).toBeDefined();
  });

  it("an unreachable deployment shows the offline page; Retry checks first, then loads the page that failed", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    const page = window.webContents;
    down = true;
    page.emit("did-fail-load", {}, -102, "ERR_CONNECTION_REFUSED", `${origin}/shop/orders`, true);
    const offline = new URL(page.url);
    expect(`${offline.protocol}//${offline.host}${offline.pathname}`).toBe("app://shell/offline.html");
    expect(offline.searchParams.get("name")).toBe("Local");
    expect(offline.searchParams.get("reason")).toBe("ERR_CONNECTION_REFUSED");
    expect(window.visible).toBe(true);
    // A subframe failing, or an aborted navigation, is not the deployment being down.
    const loads = page.loads.length;
    page.emit("did-fail-load", {}, -102, "ERR_CONNECTION_REFUSED", `${origin}/x`, false);
    page.emit("did-fail-load", {}, -3, "ERR_ABORTED", `${origin}/x`, true);
    expect(page.loads).toHaveLength(loads);

    // Still down: the page stays, says why, and no navigation (no history entry) is made.
    expect(await invoke(page, CHANNEL_NAMES.retry)).toMatchObject({
      ok: false,
      error: expect.stringContaining("Could not reach"),
    });
    expect(page.loads).toHaveLength(loads);
    // A crash of the offline page itself does not reload it in a loop.
    page.emit("render-process-gone", {}, { reason: "crashed" });
    expect(page.loads).toHaveLength(loads);

    down = false;
    expect(await invoke(page, CHANNEL_NAMES.retry)).toEqual({ ok: true, value: null });
    expect(page.url).toBe(`${origin}/shop/orders`);
    // Back from here leads into the console, not to the offline page.
    expect(page.history.filter((url) => url.startsWith("app://shell"))).toEqual([]);
    expect(page.history.at(-1)).toBe(`${origin}/shop/orders`);
    // Retry belongs to the shell's offline page: the console itself cannot call it.
    expect(() => invoke(page, CHANNEL_NAMES.retry)).toThrow(/not allowed/);
  });

  it("the offline page cannot reach the picker's channels", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    window.webContents.emit("did-fail-load", {}, -102, "ERR_CONNECTION_REFUSED", `${origin}/`, true);
    expect(window.webContents.url).toMatch(/^app:\/\/shell\/offline\.html/);
    expect(() => invoke(window.webContents, CHANNEL_NAMES.listDeployments)).toThrow(/not allowed/);
    expect(() => invoke(window.webContents, CHANNEL_NAMES.removeDeployment, "x")).toThrow(/not allowed/);
  });

  it("a first load sent to another origin opens it in the browser and explains, instead of a blank window", async () => {
    await started();
    FakeWebContents.commitLoads = false; // the load is cancelled by the policy, so nothing commits
    const { window } = await addAndOpen("Local");
    window.webContents.emit("will-redirect", {
      preventDefault: vi.fn(),
      url: "https://sso.example.com/login",
      isMainFrame: true,
    });
    expect(electron.shell.openExternal).toHaveBeenCalledWith("https://sso.example.com/login");
    const shown = new URL(window.webContents.loads.at(-1)!);
    expect(shown.pathname).toBe("/offline.html");
    expect(shown.searchParams.get("reason")).toBe(
      "it sent this window to https://sso.example.com, opened in your browser",
    );
    expect(window.visible).toBe(true);
  });

  it("a window whose load stops without painting is shown anyway", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    expect(window.visible).toBe(false);
    window.webContents.emit("did-stop-loading");
    expect(window.visible).toBe(true);
  });

  it("remembers each window's size and position", async () => {
    await started();
    const { id, window } = await addAndOpen("Local");
    window.bounds = { x: 40, y: 30, width: 1000, height: 700 };
    window.close();
    electron.app.emit("second-instance", {}, [`atrium://open?deployment=Local&path=/shop`]);
    const reopened = deploymentWindows().at(-1)!;
    expect(reopened).not.toBe(window);
    expect(reopened.options).toMatchObject({ x: 40, y: 30, width: 1000, height: 700 });
    expect(reopened.webContents.loads).toEqual([`${origin}/shop`]);
    expect(reopened.options.webPreferences.partition).toBe(`persist:deployment-${id}`);
  });

  it("reopens the last deployment at the next start instead of the picker", async () => {
    await started();
    await addAndOpen("Local");
    resetElectron(userData.path);
    await started();
    expect(picker()).toBeUndefined();
    expect(deploymentWindows()).toHaveLength(1);
    expect(deploymentWindows()[0]!.webContents.loads).toEqual([`${origin}/`]);
  });

  it("removing a deployment closes its window and clears its cookies and storage", async () => {
    await started();
    const { id, window } = await addAndOpen("Local");
    await invoke(window.webContents, CHANNEL_NAMES.switchDeployment);
    expect(await invoke(picker()!.webContents, CHANNEL_NAMES.removeDeployment, id)).toEqual({ ok: true, value: null });
    expect(window.destroyed).toBe(true);
    const storage = electron.session.fromPartition(`persist:deployment-${id}`);
    expect(storage.clearStorageData).toHaveBeenCalled();
    expect(storage.clearCache).toHaveBeenCalled();
    expect(await invoke(picker()!.webContents, CHANNEL_NAMES.listDeployments)).toEqual([]);
  });
});

describe("deep links", () => {
  it("atrium://open in a second launch opens that console path of the named deployment", async () => {
    await started();
    const { window } = await addAndOpen("Harbor Bakery");
    electron.app.emit("second-instance", {}, [
      "/opt/Atrium/atrium",
      "atrium://open?deployment=harbor%20bakery&path=/shop/orders",
    ]);
    expect(window.webContents.url).toBe(`${origin}/shop/orders`);
    expect(window.focus).toHaveBeenCalled();
  });

  it("a link naming an unknown deployment opens the picker with an explanation", async () => {
    await started();
    await addAndOpen("Local");
    electron.app.emit("second-instance", {}, ["atrium", "atrium://open?deployment=Elsewhere&path=/shop"]);
    const notice = await invoke(picker()!.webContents, CHANNEL_NAMES.pickerNotice);
    expect(notice).toMatch(/deployment named "Elsewhere", which is not saved here/);
    expect(await invoke(picker()!.webContents, CHANNEL_NAMES.pickerNotice)).toBeNull();
  });

  it("a link to another origin never loads", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    electron.app.emit("second-instance", {}, ["atrium", "atrium://open?deployment=Local&path=//evil.example/x"]);
    expect(window.webContents.loads).toEqual([`${origin}/`]);
    expect(await invoke(picker()!.webContents, CHANNEL_NAMES.pickerNotice)).toMatch(/is not a page/);
  });

  it("macOS: a link that arrives before ready is opened once the app is ready", async () => {
    await started();
    await addAndOpen("Local");
    resetElectron(userData.path);
    const shell = main();
    expect(shell).not.toBeNull();
    const early = { preventDefault: vi.fn() };
    electron.app.emit("open-url", early, "atrium://open?deployment=Local&path=/settings");
    expect(early.preventDefault).toHaveBeenCalled();
    await electron.app.becomeReady();
    expect(deploymentWindows()).toHaveLength(1);
    expect(deploymentWindows()[0]!.webContents.loads).toEqual([`${origin}/settings`]);
  });

  it("a link on the command line of the first launch is opened at start", async () => {
    await started();
    await addAndOpen("Local");
    resetElectron(userData.path);
    await started(["atrium", "atrium://open?deployment=Local&path=/bookings"]);
    expect(deploymentWindows()[0]!.webContents.loads).toEqual([`${origin}/bookings`]);
  });
});

describe("menu actions as wired", () => {
  it("open in browser hands the console page to the system browser; back goes back", async () => {
    await started();
    const { window } = await addAndOpen("Local");
    window.focus();
    window.webContents.url = `${origin}/settings/sops`;
    const find = (id: string) => findItem(electron.Menu.template, id);
    find("open-in-browser").click();
    expect(electron.shell.openExternal).toHaveBeenCalledWith(`${origin}/settings/sops`);
    find("back").click();
    expect(window.webContents.navigationHistory.goBack).toHaveBeenCalled();
    find("forward").click(); // canGoForward is false
    expect(window.webContents.navigationHistory.goForward).not.toHaveBeenCalled();
    find("reload").click();
    expect(window.webContents.reload).toHaveBeenCalled();
  });

  it("quits when the last window closes (except on macOS)", async () => {
    await started();
    electron.app.emit("window-all-closed");
    expect(electron.app.quit).toHaveBeenCalledTimes(process.platform === "darwin" ? 0 : 1);
  });
});

function findItem(template: unknown, id: string): { click: () => void } {
  const stack = [...(template as Array<Record<string, unknown>>)];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.id === id) return item as unknown as { click: () => void };
    if (Array.isArray(item.submenu)) stack.push(...(item.submenu as Array<Record<string, unknown>>));
  }
  throw new Error(`no menu item ${id}`);
}
