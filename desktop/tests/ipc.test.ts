import type { IpcMainInvokeEvent, WebContents } from "electron";
import { describe, expect, it, vi } from "vitest";
import { isTrustedSender, originOf, registerIpc, type Handlers } from "../src/main/ipc";
import { CHANNEL_NAMES } from "../src/shared/channel-names";
import { channels } from "../src/shared/ipc";

const CONSOLE = "https://atrium.example.com";

describe("IPC sender checks", () => {
  const sender = (frameUrl: string | undefined, isMainFrame = true, consoleOrigin: string | undefined = CONSOLE) => ({
    frameUrl,
    isMainFrame,
    consoleOrigin,
  });

  it("names the shell by scheme and host (a custom scheme's URL origin is the string 'null')", () => {
    expect(originOf("app://shell/picker.html?x=1")).toBe("app://shell");
    expect(originOf("https://atrium.example.com/settings")).toBe(CONSOLE);
    expect(originOf("file:///etc/passwd")).toBeNull();
    expect(originOf("data:text/html,hi")).toBeNull();
    expect(originOf("nope")).toBeNull();
  });

  it("shell channels answer only the shell's own pages", () => {
    expect(isTrustedSender(sender("app://shell/picker.html"), "shell")).toBe(true);
    expect(isTrustedSender(sender(`${CONSOLE}/settings`), "shell")).toBe(false);
    expect(isTrustedSender(sender("app://evil/picker.html"), "shell")).toBe(false);
  });

  it("console channels answer only the origin the window was opened for", () => {
    expect(isTrustedSender(sender(`${CONSOLE}/shop/orders`), "console")).toBe(true);
    expect(isTrustedSender(sender("https://evil.example/"), "console")).toBe(false);
    expect(isTrustedSender(sender("http://atrium.example.com/"), "console")).toBe(false);
    expect(isTrustedSender(sender("app://shell/offline.html"), "console")).toBe(false);
    // The picker window has no deployment: nothing passes as "console" there.
    const inPicker = { frameUrl: `${CONSOLE}/`, isMainFrame: true, consoleOrigin: undefined };
    expect(isTrustedSender(inPicker, "console")).toBe(false);
    expect(isTrustedSender(inPicker, "any")).toBe(false);
  });

  it("shared channels answer either, and nobody from a subframe or a vanished frame", () => {
    expect(isTrustedSender(sender("app://shell/offline.html"), "any")).toBe(true);
    expect(isTrustedSender(sender(`${CONSOLE}/`), "any")).toBe(true);
    expect(isTrustedSender(sender("https://evil.example/"), "any")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/`, false), "any")).toBe(false);
    expect(isTrustedSender(sender("app://shell/picker.html", false), "shell")).toBe(false);
    expect(isTrustedSender(sender(undefined), "any")).toBe(false);
  });

  it("every channel declares an audience; the deployment list is never offered to a console page", () => {
    for (const channel of Object.values(channels)) expect(["shell", "console", "any"]).toContain(channel.audience);
    expect(channels.listDeployments.audience).toBe("shell");
    expect(channels.addDeployment.audience).toBe("shell");
    expect(channels.removeDeployment.audience).toBe("shell");
    expect(new Set(Object.values(CHANNEL_NAMES)).size).toBe(Object.keys(channels).length);
  });
});

describe("registerIpc", () => {
  const setup = () => {
    const registered = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    const ipcMain = { handle: vi.fn((name: string, fn) => registered.set(name, fn)) };
    const handlers = Object.fromEntries(
      Object.keys(channels).map((key) => [key, vi.fn(() => `${key} ran`)]),
    ) as unknown as Handlers & Record<string, ReturnType<typeof vi.fn>>;
    const refused = vi.fn();
    const consoleContents = { id: 1 } as WebContents;
    registerIpc(ipcMain, handlers, {
      consoleOriginOf: (contents) => (contents === consoleContents ? CONSOLE : undefined),
      refused,
    });
    const event = (url: string | null, contents: WebContents = consoleContents, parent: unknown = null) =>
      ({ sender: contents, senderFrame: url === null ? null : { url, parent } }) as unknown as IpcMainInvokeEvent;
    const call = (name: string, ev: IpcMainInvokeEvent, ...args: unknown[]) => registered.get(name)!(ev, ...args);
    return { registered, handlers, refused, event, call, consoleContents };
  };

  it("registers a handler for every channel", () => {
    const { registered } = setup();
    expect([...registered.keys()].sort()).toEqual(Object.values(CHANNEL_NAMES).sort());
  });

  it("runs a handler for a trusted sender with parsed arguments", async () => {
    const { handlers, call, event, consoleContents } = setup();
    await call(CHANNEL_NAMES.notify, event(`${CONSOLE}/shop`), { title: " Order paid " });
    expect(handlers.notify).toHaveBeenCalledWith(consoleContents, { title: "Order paid", body: "" });
    await call(CHANNEL_NAMES.renameDeployment, event("app://shell/picker.html", { id: 2 } as WebContents), {
      id: "0b7c5d9e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
      name: "Head office",
    });
    expect(handlers.renameDeployment).toHaveBeenCalledTimes(1);
  });

  it("refuses an untrusted sender before the handler runs", () => {
    const { handlers, call, event, refused } = setup();
    expect(() => call(CHANNEL_NAMES.listDeployments, event(`${CONSOLE}/`))).toThrow(/not allowed from this page/);
    expect(() => call(CHANNEL_NAMES.notify, event("https://evil.example/"))).toThrow(/not allowed/);
    expect(() => call(CHANNEL_NAMES.appVersion, event(`${CONSOLE}/`, undefined, { url: CONSOLE }))).toThrow(
      /not allowed/,
    );
    expect(() => call(CHANNEL_NAMES.appVersion, event(null))).toThrow(/not allowed/);
    expect(handlers.listDeployments).not.toHaveBeenCalled();
    expect(handlers.notify).not.toHaveBeenCalled();
    expect(handlers.appVersion).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(CHANNEL_NAMES.listDeployments, "untrusted sender", `${CONSOLE}/`);
  });

  it("refuses arguments that fail the channel's schema", () => {
    const { handlers, call, event, refused } = setup();
    const shell = event("app://shell/picker.html", { id: 2 } as WebContents);
    expect(() => call(CHANNEL_NAMES.removeDeployment, shell, "../../etc")).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.removeDeployment, shell)).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.addDeployment, shell, { name: "x", url: 42 })).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.appVersion, shell, "extra")).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.notify, event(`${CONSOLE}/`), { title: "" })).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.notify, event(`${CONSOLE}/`), { title: "x".repeat(500) })).toThrow(/invalid/);
    expect(handlers.removeDeployment).not.toHaveBeenCalled();
    expect(handlers.addDeployment).not.toHaveBeenCalled();
    expect(handlers.notify).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(
      CHANNEL_NAMES.removeDeployment,
      "invalid arguments",
      "app://shell/picker.html",
    );
  });
});
