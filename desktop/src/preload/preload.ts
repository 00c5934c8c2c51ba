/**
 * The only bridge between pages and the main process: `window.atriumDesktop`, a handful of named functions.
 * ipcRenderer itself is never exposed, so a page cannot pick its own channel; the main process still checks
 * every sender, because this script also runs in the console, which the shell does not control.
 */
import { contextBridge, ipcRenderer } from "electron";
import { CHANNEL_NAMES as channel } from "../shared/channel-names";
import type { DesktopApi } from "../shared/ipc";

const invoke = (name: string, ...args: unknown[]) => ipcRenderer.invoke(name, ...args);

const api: DesktopApi = {
  appVersion: () => invoke(channel.appVersion),
  switchDeployment: () => invoke(channel.switchDeployment),
  notify: (notice) => invoke(channel.notify, notice),
  deployments: {
    list: () => invoke(channel.listDeployments),
    probe: (url) => invoke(channel.probeDeployment, url),
    add: (input) => invoke(channel.addDeployment, input),
    rename: (input) => invoke(channel.renameDeployment, input),
    remove: (id) => invoke(channel.removeDeployment, id),
    open: (id) => invoke(channel.openDeployment, id),
  },
  retry: () => invoke(channel.retry),
  pickerNotice: () => invoke(channel.pickerNotice),
};

contextBridge.exposeInMainWorld("atriumDesktop", api);
