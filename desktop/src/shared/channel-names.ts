/**
 * Channel names without their schemas: the preload needs only these, and a sandboxed preload should stay
 * small (zod lives in the main process, which validates).
 */
export const SHELL_SCHEME = "app";
export const SHELL_ORIGIN = "app://shell";

export const CHANNEL_NAMES = {
  appVersion: "desktop:app-version",
  switchDeployment: "desktop:switch-deployment",
  notify: "desktop:notify",
  listDeployments: "deployments:list",
  probeDeployment: "deployments:probe",
  addDeployment: "deployments:add",
  renameDeployment: "deployments:rename",
  removeDeployment: "deployments:remove",
  openDeployment: "deployments:open",
  retry: "shell:retry",
  pickerNotice: "shell:picker-notice",
} as const;
