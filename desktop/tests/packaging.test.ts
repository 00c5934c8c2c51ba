import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getCurrentFuseWire, type FuseV1Options } from "@electron/fuses";
import { Arch, type TargetConfigType } from "electron-builder";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import packageJson from "../package.json";
import { DEEP_LINK_SCHEME } from "../src/main/deep-links";
import afterPackDefault, {
  afterPack,
  electronBinaryPath,
  FUSES,
  fuseConfigFor,
  type PackedApp,
} from "../src/packaging/after-pack";
import config from "../src/packaging/builder-config";

function targetNames(target: TargetConfigType | undefined): string[] {
  if (target == null) return [];
  const list = Array.isArray(target) ? target : [target];
  return list.map((entry) => (typeof entry === "string" ? entry : entry.target));
}

function context(overrides: Partial<PackedApp> & Pick<PackedApp, "electronPlatformName">): PackedApp {
  return {
    appOutDir: "/out/linux-unpacked",
    arch: Arch.x64,
    packager: { appInfo: { productFilename: "Atrium" }, executableName: "atrium" },
    ...overrides,
  };
}

describe("electron-builder configuration", () => {
  it("names the app and keeps build output out of dist/", () => {
    expect(config.appId).toBe("dev.atrium.desktop");
    expect(config.productName).toBe("Atrium");
    expect(config.directories).toEqual({ output: "release", buildResources: "build-resources" });
  });

  it("builds AppImage and deb on Linux, dmg on macOS and an NSIS installer on Windows", () => {
    expect(targetNames(config.linux?.target)).toEqual(["AppImage", "deb"]);
    expect(config.linux?.category).toBe("Office");
    expect(config.linux?.maintainer).toBe(packageJson.author);
    expect(targetNames(config.mac?.target)).toEqual(["dmg"]);
    expect(config.mac?.category).toBe("public.app-category.business");
    expect(targetNames(config.win?.target)).toEqual(["nsis"]);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true });
  });

  it("packs into an asar without rebuilding native modules", () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
  });

  it("registers the atrium:// scheme the deep-link parser handles", () => {
    expect(DEEP_LINK_SCHEME).toBe("atrium");
    expect(config.protocols).toEqual([{ name: "Atrium", schemes: ["atrium"] }]);
  });

  it("ships only the built app: no sources, tests, packaging code or source maps", () => {
    expect(Array.isArray(config.files) && config.files.every((pattern) => typeof pattern === "string")).toBe(true);
    const patterns = config.files as string[];
    const included = patterns.filter((pattern) => !pattern.startsWith("!"));
    const roots = ["dist/main/", "dist/preload/", "dist/renderer/"];
    const shipped = (pattern: string) => pattern === "package.json" || roots.some((root) => pattern.startsWith(root));
    expect(included.filter((pattern) => !shipped(pattern))).toEqual([]);
    expect(included).toHaveLength(4);
    expect(patterns).toContain("!**/*.map");
  });

  it("flips fuses in its own afterPack hook, not through electron-builder's electronFuses", () => {
    expect(config.afterPack).toBe(afterPack);
    expect(afterPackDefault).toBe(afterPack);
    expect(config).not.toHaveProperty("electronFuses");
  });
});

describe("electronBinaryPath", () => {
  it("points at the executable named by the Linux packager", () => {
    expect(electronBinaryPath(context({ electronPlatformName: "linux" }))).toBe("/out/linux-unpacked/atrium");
  });

  it("points at the .exe on Windows", () => {
    const win = context({ electronPlatformName: "win32", appOutDir: "/out/win-unpacked" });
    expect(electronBinaryPath(win)).toBe("/out/win-unpacked/Atrium.exe");
  });

  it("points at the .app bundle on macOS and for the Mac App Store", () => {
    const mac = context({ electronPlatformName: "darwin", appOutDir: "/out/mac-arm64" });
    expect(electronBinaryPath(mac)).toBe("/out/mac-arm64/Atrium.app");
    const mas = context({ electronPlatformName: "mas", appOutDir: "/out/mas" });
    expect(electronBinaryPath(mas)).toBe("/out/mas/Atrium.app");
  });

  it("refuses a platform it does not know", () => {
    const freebsd = context({ electronPlatformName: "freebsd" });
    expect(() => electronBinaryPath(freebsd)).toThrow(/unknown platform "freebsd"/);
  });

  it("refuses a Linux packager without an executable name", () => {
    const packager = { appInfo: { productFilename: "Atrium" } };
    expect(() => electronBinaryPath(context({ electronPlatformName: "linux", packager }))).toThrow(/executableName/);
  });
});

describe("fuseConfigFor", () => {
  it("redoes the ad-hoc signature only for arm64 macOS builds", () => {
    const resetsSignature = (electronPlatformName: string, arch: Arch) =>
      fuseConfigFor(context({ electronPlatformName, arch })).resetAdHocDarwinSignature;
    expect(resetsSignature("darwin", Arch.arm64)).toBe(true);
    expect(resetsSignature("darwin", Arch.x64)).toBe(false);
    expect(resetsSignature("darwin", Arch.universal)).toBe(false);
    expect(resetsSignature("mas", Arch.arm64)).toBe(false);
    expect(resetsSignature("linux", Arch.arm64)).toBe(false);
  });

  it("never asks @electron/fuses to require every fuse (Electron 45 has one it cannot name)", () => {
    expect(FUSES).not.toHaveProperty("strictlyRequireAllFuses");
  });
});

describe("afterPack on a fake Electron binary", () => {
  const SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";
  const ON = "1".charCodeAt(0);
  const OFF = "0".charCodeAt(0);
  // Electron's fuse wire, in wire order, with each fuse in the state a freshly downloaded Electron ships.
  const ELECTRON_DEFAULTS = [
    ["RunAsNode", "1"],
    ["EnableCookieEncryption", "0"],
    ["EnableNodeOptionsEnvironmentVariable", "1"],
    ["EnableNodeCliInspectArguments", "1"],
    ["EnableEmbeddedAsarIntegrityValidation", "0"],
    ["OnlyLoadAppFromAsar", "0"],
    ["LoadBrowserProcessSpecificV8Snapshot", "0"],
    ["GrantFileProtocolExtraPrivileges", "1"],
    // Electron 43+ only; @electron/fuses 1.8.0 has no name for it, so the hook must leave it alone.
    ["WasmTrapHandlers", "1"],
  ] as const;
  const EXPECTED: Record<(typeof ELECTRON_DEFAULTS)[number][0], number> = {
    RunAsNode: OFF,
    EnableCookieEncryption: ON,
    EnableNodeOptionsEnvironmentVariable: OFF,
    EnableNodeCliInspectArguments: OFF,
    EnableEmbeddedAsarIntegrityValidation: ON,
    OnlyLoadAppFromAsar: ON,
    LoadBrowserProcessSpecificV8Snapshot: OFF,
    GrantFileProtocolExtraPrivileges: OFF,
    WasmTrapHandlers: ON,
  };
  const PREFIX = Buffer.alloc(4096, "ELF-ish machine code before the wire ");
  const SUFFIX = Buffer.alloc(2048, "and more after it ");

  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "atrium-after-pack-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Sentinel, version byte (1 = V1), wire length byte, then one ASCII '0'/'1' per fuse. */
  function fakeElectron(fuseCount: number): Buffer {
    const states = ELECTRON_DEFAULTS.slice(0, fuseCount).map(([, state]) => state);
    return Buffer.concat([
      PREFIX,
      Buffer.from(SENTINEL, "ascii"),
      Buffer.from([1, fuseCount]),
      Buffer.from(states.join(""), "ascii"),
      SUFFIX,
    ]);
  }

  async function writeBinary(path: string, fuseCount: number): Promise<Buffer> {
    const bytes = fakeElectron(fuseCount);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    return bytes;
  }

  /** `electronPath` is what @electron/fuses is given (a .app on macOS); `file` is where the wire really is. */
  async function expectHardened(electronPath: string, file: string, original: Buffer, fuseCount: number) {
    const wire = await getCurrentFuseWire(electronPath);
    expect(wire.version).toBe("1");
    const states = ELECTRON_DEFAULTS.slice(0, fuseCount).map(([name], index) => [name, wire[index as FuseV1Options]]);
    const expected = ELECTRON_DEFAULTS.slice(0, fuseCount).map(([name]) => [name, EXPECTED[name]]);
    expect(Object.fromEntries(states)).toEqual(Object.fromEntries(expected));

    const after = await readFile(file);
    expect(after.length).toBe(original.length);
    const wireStart = PREFIX.length + SENTINEL.length + 2;
    expect(after.subarray(0, wireStart)).toEqual(original.subarray(0, wireStart));
    expect(after.subarray(after.length - SUFFIX.length)).toEqual(SUFFIX);
  }

  it("reads the fake binary the way @electron/fuses reads a real one", async () => {
    const path = join(dir, "atrium");
    await writeBinary(path, 9);
    const wire = await getCurrentFuseWire(path);
    const states = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((index) => wire[index as FuseV1Options]);
    expect(states).toEqual([ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON]);
  });

  it.each([
    { electron: "45 (nine fuses)", fuseCount: 9 },
    { electron: "before 43 (eight fuses)", fuseCount: 8 },
  ])("hardens a Linux build of Electron $electron", async ({ fuseCount }) => {
    const appOutDir = join(dir, "linux-unpacked");
    const path = join(appOutDir, "atrium");
    const original = await writeBinary(path, fuseCount);

    await afterPack(context({ electronPlatformName: "linux", appOutDir }));

    await expectHardened(path, path, original, fuseCount);
  });

  it("hardens a Windows build", async () => {
    const appOutDir = join(dir, "win-unpacked");
    const path = join(appOutDir, "Atrium.exe");
    const original = await writeBinary(path, 9);

    await afterPack(context({ electronPlatformName: "win32", appOutDir }));

    await expectHardened(path, path, original, 9);
  });

  it("hardens the framework inside an x64 macOS bundle", async () => {
    const appOutDir = join(dir, "mac");
    const framework = join(appOutDir, "Atrium.app/Contents/Frameworks/Electron Framework.framework/Electron Framework");
    const original = await writeBinary(framework, 9);

    await afterPack(context({ electronPlatformName: "darwin", arch: Arch.x64, appOutDir }));

    await expectHardened(join(appOutDir, "Atrium.app"), framework, original, 9);
  });

  it("is idempotent: a second pass leaves the hardened binary byte for byte", async () => {
    const appOutDir = join(dir, "linux-unpacked");
    const path = join(appOutDir, "atrium");
    await writeBinary(path, 9);

    await afterPack(context({ electronPlatformName: "linux", appOutDir }));
    const once = await readFile(path);
    await afterPack(context({ electronPlatformName: "linux", appOutDir }));

    expect(await readFile(path)).toEqual(once);
  });

  it("fails the build on an unknown platform and touches nothing", async () => {
    const appOutDir = join(dir, "linux-unpacked");
    const path = join(appOutDir, "atrium");
    const original = await writeBinary(path, 9);

    const freebsd = context({ electronPlatformName: "freebsd", appOutDir });
    await expect(afterPack(freebsd)).rejects.toThrow(/unknown platform "freebsd"/);

    expect(await readFile(path)).toEqual(original);
  });

  it("fails the build when the binary has no fuse wire instead of shipping it unfused", async () => {
    const appOutDir = join(dir, "linux-unpacked");
    await mkdir(appOutDir, { recursive: true });
    await writeFile(join(appOutDir, "atrium"), PREFIX);

    await expect(afterPack(context({ electronPlatformName: "linux", appOutDir }))).rejects.toThrow(/sentinel/);
  });
});
