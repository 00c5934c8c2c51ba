/**
 * Every IPC handler goes through here: the sender must be the top frame of a page allowed on that channel
 * (the shell's own page in the right window, or the console at the origin its window was opened for), and
 * the arguments must pass the channel's zod schema. Anything else is refused before a handler runs.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from "electron";
import type { z } from "zod";
import { SHELL_ORIGIN } from "../shared/channel-names";
import { channels, type Audience, type ChannelKey, type ChannelResults } from "../shared/ipc";

/** What the shell knows about the window a message came from: never what the page says about itself. */
export type WindowRole = { kind: "picker" } | { kind: "deployment"; origin: string } | undefined;

export interface SenderInfo {
  /** The URL of the frame that sent the message, if it still exists. */
  frameUrl: string | undefined;
  isMainFrame: boolean;
  window: WindowRole;
}

/** `new URL("app://shell/x").origin` is "null" (a non-special scheme), so the shell is recognised by scheme+host. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "app:") return `app://${parsed.host}`;
    return parsed.origin === "null" ? null : parsed.origin;
  } catch {
    return null;
  }
}

export function isTrustedSender(sender: SenderInfo, audience: Audience): boolean {
  if (!sender.isMainFrame || sender.frameUrl === undefined) return false;
  const origin = originOf(sender.frameUrl);
  if (origin === null) return false;
  const { window } = sender;
  const fromPicker = origin === SHELL_ORIGIN && window?.kind === "picker";
  const fromOfflinePage = origin === SHELL_ORIGIN && window?.kind === "deployment";
  const fromConsole = window?.kind === "deployment" && origin === window.origin;
  switch (audience) {
    case "picker":
      return fromPicker;
    case "offline":
      return fromOfflinePage;
    case "console":
      return fromConsole;
    case "any":
      return fromPicker || fromOfflinePage || fromConsole;
  }
}

type Args<K extends ChannelKey> = z.output<(typeof channels)[K]["args"]>;
export type Handlers = {
  [K in ChannelKey]: (sender: WebContents, ...args: Args<K>) => ChannelResults[K] | Promise<ChannelResults[K]>;
};

export interface IpcOptions {
  roleOf(sender: WebContents): WindowRole;
  refused(channel: string, reason: string, frameUrl: string | undefined): void;
}

export function senderInfo(event: IpcMainInvokeEvent, roleOf: IpcOptions["roleOf"]): SenderInfo {
  const frame = event.senderFrame;
  return {
    frameUrl: frame?.url,
    // Identity of WebFrameMain objects is not stable; a top frame is the one without a parent.
    isMainFrame: frame !== null && frame !== undefined && frame.parent === null,
    window: roleOf(event.sender),
  };
}

export function registerIpc(ipcMain: Pick<IpcMain, "handle">, handlers: Handlers, options: IpcOptions): void {
  for (const key of Object.keys(channels) as ChannelKey[]) {
    const channel = channels[key];
    ipcMain.handle(channel.name, (event, ...raw: unknown[]) => {
      const sender = senderInfo(event, options.roleOf);
      if (!isTrustedSender(sender, channel.audience)) {
        options.refused(channel.name, "untrusted sender", sender.frameUrl);
        throw new Error(`${channel.name}: not allowed from this page`);
      }
      const args = channel.args.safeParse(raw);
      if (!args.success) {
        options.refused(channel.name, "invalid arguments", sender.frameUrl);
        throw new Error(`${channel.name}: invalid arguments`);
      }
      const handler = handlers[key] as (sender: WebContents, ...args: unknown[]) => unknown;
      return handler(event.sender, ...(args.data as unknown[]));
    });
  }
}
