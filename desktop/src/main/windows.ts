/**
 * Browser windows: one for the deployment picker, one per open deployment. Every window gets the same
 * hardened preferences; a deployment window also gets its own session partition, so two deployments never
 * share cookies, storage or cache.
 */
import { BrowserWindow, screen, type WebPreferences } from "electron";
import type { Deployment } from "../shared/ipc";
import { partitionFor } from "./deployments-store";
import { initialBounds, MIN_SIZE, type WindowState } from "./window-state";

export function secureWebPreferences(preload: string, partition?: string): WebPreferences {
  return {
    preload,
    ...(partition ? { partition } : {}),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

export function createPickerWindow(preload: string): BrowserWindow {
  return new BrowserWindow({
    width: 760,
    height: 680,
    minWidth: 520,
    minHeight: 480,
    title: "Atrium — deployments",
    show: false,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  });
}

export function createDeploymentWindow(
  deployment: Deployment,
  preload: string,
  saved: WindowState | undefined,
): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const { maximized, ...bounds } = initialBounds(saved, workAreas);
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: `Atrium — ${deployment.name}`,
    show: false,
    webPreferences: secureWebPreferences(preload, partitionFor(deployment)),
  });
  if (maximized) window.maximize();
  return window;
}

export function windowStateOf(window: BrowserWindow): WindowState {
  const { x, y, width, height } = window.getNormalBounds();
  return { x, y, width, height, maximized: window.isMaximized() };
}
