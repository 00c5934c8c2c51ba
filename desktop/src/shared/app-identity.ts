/** One id for the installers (electron-builder's appId) and the running app (Windows' AppUserModelID). */
export const APP_ID = "dev.atrium.desktop";
