/**
 * electron-builder configuration, bundled by scripts/build.mjs to dist/packaging/builder-config.js (CommonJS) and
 * passed to `electron-builder --config`. electron-builder require()s a .js config and, finding `exports.default`,
 * uses that, so a plain default export is enough (app-builder-lib/out/util/config/load.js, readConfig).
 */
import type { Configuration } from "electron-builder";
import packageJson from "../../package.json";
import { DEEP_LINK_SCHEME } from "../main/deep-links";
import { APP_ID } from "../shared/app-identity";
import { afterPack } from "./after-pack";

const config: Configuration = {
  appId: APP_ID,
  productName: "Atrium",
  directories: { output: "release", buildResources: "build-resources" },
  // Everything the app runs is bundled into dist/ and it has no runtime dependencies, so the package is an
  // allow-list: sources, tests and this packaging code never ship. Source maps are left out too: they carry the
  // full sources, and nothing in the packaged app reads them (--enable-source-maps via NODE_OPTIONS is fused off).
  files: ["dist/main/**", "dist/preload/**", "dist/renderer/**", "package.json", "!**/*.map"],
  asar: true,
  // No native modules: nothing to rebuild against Electron's ABI.
  npmRebuild: false,
  protocols: [{ name: "Atrium", schemes: [DEEP_LINK_SCHEME] }],
  // The afterPack hook owns the fuses. electron-builder's own `electronFuses` option is deliberately unset: it
  // flips the same wire after the hook, so two sources of truth could silently undo each other.
  afterPack,
  linux: {
    target: ["AppImage", "deb"],
    category: "Office",
    // A deb's control file must name a maintainer; the package.json author is who answers for this one.
    maintainer: packageJson.author,
  },
  mac: { target: "dmg", category: "public.app-category.business" },
  win: { target: "nsis" },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};

export default config;
