/**
 * electron-builder's afterPack hook: flips Electron's fuses in the packaged binary. It runs after the app is
 * copied into place and before electron-builder signs it, so the signature covers the flipped fuses.
 */
import { flipFuses, FuseV1Options, FuseVersion, type FuseV1Config } from "@electron/fuses";
import type { AfterPackContext, Arch } from "electron-builder";

/**
 * `strictlyRequireAllFuses` stays off on purpose: Electron 43+ binaries carry a ninth fuse (WasmTrapHandlers)
 * that @electron/fuses 1.8.0 cannot name, and strict mode would then refuse every build. That fuse keeps
 * Electron's default (on), which is what we want.
 */
export const FUSES = {
  version: FuseVersion.V1,
  // ELECTRON_RUN_AS_NODE, NODE_OPTIONS and --inspect each turn the shipped binary into a general-purpose,
  // signed Node.js that anything on the machine can drive.
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // Session cookies for the deployments stay encrypted at rest with the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // Only app.asar is loaded, and on macOS and Windows only while it matches the hash electron-builder embeds
  // there (Electron has no asar integrity check on Linux; the fuse is harmless there).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // Electron's default: we ship no browser-process V8 snapshot of our own.
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // Our pages are served over the app:// protocol, so file:// needs none of its legacy privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
} as const satisfies FuseV1Config;

// A type-only import keeps electron-builder's runtime out of this module; the annotation makes tsc fail if
// builder-util ever renumbers Arch.arm64.
const ARCH_ARM64: Arch.arm64 = 3;

/**
 * The part of AfterPackContext the hook reads. A real context satisfies it; `executableName` exists only on
 * the Linux packager, which is why it is optional here.
 */
export type PackedApp = Pick<AfterPackContext, "appOutDir" | "electronPlatformName" | "arch"> & {
  readonly packager: { readonly appInfo: { readonly productFilename: string }; readonly executableName?: string };
};

/** The path @electron/fuses expects: the .app bundle on macOS (it finds the framework inside), else the executable. */
export function electronBinaryPath(context: PackedApp): string {
  const { appOutDir, electronPlatformName: platform, packager } = context;
  switch (platform) {
    case "darwin":
    case "mas":
      return `${appOutDir}/${packager.appInfo.productFilename}.app`;
    case "win32":
      return `${appOutDir}/${packager.appInfo.productFilename}.exe`;
    case "linux":
      if (typeof packager.executableName !== "string" || packager.executableName === "") {
        throw new Error("afterPack: the Linux packager has no executableName; cannot locate the Electron binary.");
      }
      return `${appOutDir}/${packager.executableName}`;
    default:
      throw new Error(`afterPack: unknown platform "${platform}"; cannot find the Electron binary to flip its fuses.`);
  }
}

/**
 * Flipping fuses invalidates the binary's signature, and an arm64 Mac refuses to run unsigned code, so without a
 * real signing identity the ad-hoc signature must be redone. electron-builder packs a universal build as arm64 and
 * x64 slices first and runs this hook on each, so the arm64 slice is re-signed there. Mac App Store builds are
 * always signed for real afterwards.
 */
export function fuseConfigFor(context: PackedApp): FuseV1Config {
  const armMac = context.electronPlatformName === "darwin" && context.arch === ARCH_ARM64;
  return { ...FUSES, resetAdHocDarwinSignature: armMac };
}

export async function afterPack(context: PackedApp): Promise<void> {
  await flipFuses(electronBinaryPath(context), fuseConfigFor(context));
}

export default afterPack;
