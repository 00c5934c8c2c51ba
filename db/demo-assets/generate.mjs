/**
 * Draws the demo bakery's images (Harbor Bakery) as SVG and renders them with sharp: run
 * `node db/demo-assets/generate.mjs` to make them again. The outputs are committed beside this script;
 * the demo seeds them through the files service's upload path (seedDemoMedia).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const here = dirname(fileURLToPath(import.meta.url));

// A seeded random, so the pictures are the same on every run.
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const between = (a, b) => a + rand() * (b - a);

const defs = `
  <radialGradient id="crust" cx="45%" cy="30%" r="75%">
    <stop offset="0" stop-color="#e8b06a"/><stop offset="0.45" stop-color="#c27a3a"/>
    <stop offset="0.85" stop-color="#8c4a1c"/><stop offset="1" stop-color="#6b3612"/>
  </radialGradient>
  <radialGradient id="crustDark" cx="45%" cy="30%" r="75%">
    <stop offset="0" stop-color="#c98a4b"/><stop offset="0.5" stop-color="#94521f"/><stop offset="1" stop-color="#4f2709"/>
  </radialGradient>
  <radialGradient id="pastry" cx="40%" cy="30%" r="80%">
    <stop offset="0" stop-color="#f7cf7e"/><stop offset="0.5" stop-color="#dc9a45"/><stop offset="1" stop-color="#9b5a1d"/>
  </radialGradient>
  <linearGradient id="wood" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#9b6a45"/><stop offset="1" stop-color="#6e4529"/>
  </linearGradient>
  <linearGradient id="board" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#c8955f"/><stop offset="1" stop-color="#a8743f"/>
  </linearGradient>
  <filter id="shadow" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="14"/></filter>
  <filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="40"/></filter>
  <filter id="flour"><feGaussianBlur stdDeviation="1.2"/></filter>`;

function loaf(x, y, w, h, rotate = 0, dark = false) {
  const scores = [];
  const n = 3 + Math.floor(rand() * 2);
  for (let i = 0; i < n; i++) {
    const cx = -w * 0.32 + (i * w * 0.64) / (n - 1);
    scores.push(
      `<path d="M ${cx - w * 0.07} ${h * 0.22} Q ${cx} 0 ${cx + w * 0.07} ${-h * 0.24}" stroke="#f6dcae" stroke-width="${h * 0.06}" stroke-linecap="round" fill="none" opacity="0.9"/>`,
    );
  }
  const dust = Array.from({ length: 40 }, () => {
    const a = between(0, Math.PI * 2);
    const r = Math.sqrt(rand()) * 0.8;
    return `<circle cx="${(Math.cos(a) * r * w) / 2}" cy="${(Math.sin(a) * r * h) / 2}" r="${between(1, 3)}" fill="#fff8ec" opacity="${between(0.3, 0.8)}" filter="url(#flour)"/>`;
  }).join("");
  return `<g transform="translate(${x} ${y}) rotate(${rotate})">
    <ellipse cx="${w * 0.03}" cy="${h * 0.42}" rx="${w * 0.52}" ry="${h * 0.22}" fill="#2b1608" opacity="0.35" filter="url(#shadow)"/>
    <ellipse rx="${w / 2}" ry="${h / 2}" fill="url(#${dark ? "crustDark" : "crust"})"/>
    ${scores.join("")}${dust}
  </g>`;
}

function round(x, y, r, rotate = 0) {
  return `<g transform="translate(${x} ${y}) rotate(${rotate})">
    <ellipse cx="${r * 0.05}" cy="${r * 0.75}" rx="${r * 1.02}" ry="${r * 0.35}" fill="#2b1608" opacity="0.35" filter="url(#shadow)"/>
    <circle r="${r}" fill="url(#crust)"/>
    <path d="M ${-r * 0.6} 0 L ${r * 0.6} 0 M 0 ${-r * 0.6} L 0 ${r * 0.6}" stroke="#f6dcae" stroke-width="${r * 0.09}" stroke-linecap="round" opacity="0.9"/>
  </g>`;
}

function croissant(x, y, s, rotate = 0) {
  const parts = [];
  const segments = 7;
  for (let i = 0; i < segments; i++) {
    const t = i / (segments - 1) - 0.5;
    const angle = t * 150;
    const rad = (angle * Math.PI) / 180;
    const size = 1 - Math.abs(t) * 1.2;
    const cx = Math.sin(rad) * s * 0.9;
    const cy = -Math.cos(rad) * s * 0.45 + s * 0.35;
    parts.push(
      `<ellipse cx="${cx}" cy="${cy}" rx="${s * 0.2 * size + s * 0.06}" ry="${s * 0.34 * size + s * 0.08}" transform="rotate(${angle} ${cx} ${cy})" fill="url(#pastry)" stroke="#8a4a16" stroke-width="${s * 0.012}" stroke-opacity="0.5"/>`,
    );
  }
  // Middle segments last, so they sit on top.
  const order = [0, 6, 1, 5, 2, 4, 3];
  return `<g transform="translate(${x} ${y}) rotate(${rotate})">
    <ellipse cy="${s * 0.42}" rx="${s * 1.0}" ry="${s * 0.22}" fill="#2b1608" opacity="0.3" filter="url(#shadow)"/>
    ${order.map((i) => parts[i]).join("")}
  </g>`;
}

function bun(x, y, r) {
  let spiral = "";
  const turns = 3.2;
  for (let a = 0; a < turns * Math.PI * 2; a += 0.15) {
    const rr = (a / (turns * Math.PI * 2)) * r * 0.85;
    spiral += `${spiral ? "L" : "M"} ${(Math.cos(a) * rr).toFixed(1)} ${(Math.sin(a) * rr).toFixed(1)} `;
  }
  return `<g transform="translate(${x} ${y})">
    <ellipse cy="${r * 0.7}" rx="${r * 1.05}" ry="${r * 0.32}" fill="#2b1608" opacity="0.3" filter="url(#shadow)"/>
    <circle r="${r}" fill="url(#pastry)"/>
    <path d="${spiral}" stroke="#7a3c10" stroke-width="${r * 0.07}" fill="none" stroke-linecap="round" opacity="0.75"/>
    <path d="${spiral}" stroke="#fff4dc" stroke-width="${r * 0.03}" fill="none" stroke-linecap="round" opacity="0.8" transform="translate(${r * 0.04} ${-r * 0.04})"/>
  </g>`;
}

function svg(width, height, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;
}

const hero = svg(
  1920,
  1080,
  `<rect width="1920" height="1080" fill="#f3e3cb"/>
  <ellipse cx="1500" cy="180" rx="700" ry="420" fill="#ffd9a0" opacity="0.7" filter="url(#soft)"/>
  <rect x="0" y="0" width="1920" height="640" fill="#ead5b5" opacity="0.6"/>
  ${[0, 1, 2, 3].map((i) => `<rect x="${120 + i * 440}" y="90" width="380" height="460" rx="12" fill="#b7d6d9"/><rect x="${120 + i * 440}" y="380" width="380" height="170" fill="#4f8a96"/>${i === 1 || i === 3 ? `<g transform="translate(${240 + i * 440 + (i === 3 ? 60 : 0)} 380)"><path d="M -50 0 L 50 0 L 36 22 L -36 22 Z" fill="#f8f1e6"/><line x1="0" y1="0" x2="0" y2="-90" stroke="#5a4a3c" stroke-width="4"/><path d="M 4 -84 L 4 -10 L 56 -10 Z" fill="#fdfaf3"/></g>` : ""}<rect x="${120 + i * 440}" y="90" width="380" height="460" rx="12" fill="none" stroke="#f6ead8" stroke-width="14"/><line x1="${310 + i * 440}" y1="90" x2="${310 + i * 440}" y2="550" stroke="#f6ead8" stroke-width="10"/><line x1="${120 + i * 440}" y1="320" x2="${500 + i * 440}" y2="320" stroke="#f6ead8" stroke-width="10"/>`).join("")}
  <rect x="0" y="600" width="1920" height="40" fill="#7a4e2e"/>
  <rect x="0" y="640" width="1920" height="440" fill="url(#wood)"/>
  ${Array.from({ length: 9 }, (_, i) => `<line x1="0" y1="${680 + i * 45}" x2="1920" y2="${680 + i * 45 + between(-8, 8)}" stroke="#5c3820" stroke-width="2" opacity="0.35"/>`).join("")}
  <rect x="180" y="690" width="1560" height="300" rx="26" fill="url(#board)"/>
  ${loaf(420, 790, 420, 230, -6)}${loaf(860, 770, 460, 250, 4, true)}${loaf(1310, 800, 400, 220, -3)}
  ${round(620, 900, 95, 10)}${round(1080, 915, 90, -12)}${round(1540, 905, 100, 5)}
  ${Array.from({ length: 60 }, () => `<circle cx="${between(200, 1720)}" cy="${between(700, 990)}" r="${between(1, 3)}" fill="#fff8ec" opacity="${between(0.2, 0.6)}"/>`).join("")}`,
);

const loaves = svg(
  1600,
  1067,
  `<rect width="1600" height="1067" fill="#2f3a3a"/>
  <ellipse cx="800" cy="520" rx="760" ry="500" fill="#4b5a57" opacity="0.8" filter="url(#soft)"/>
  <rect x="90" y="130" width="1420" height="800" rx="40" fill="url(#board)"/>
  ${Array.from({ length: 12 }, (_, i) => `<line x1="90" y1="${170 + i * 66}" x2="1510" y2="${170 + i * 66 + between(-6, 6)}" stroke="#8a5a2c" stroke-width="2" opacity="0.4"/>`).join("")}
  ${loaf(430, 360, 520, 290, -12, true)}${loaf(1110, 340, 540, 300, 8)}${loaf(760, 690, 600, 320, -2)}
  ${round(300, 760, 120, 20)}${round(1300, 740, 125, -8)}
`,
);

const pastries = svg(
  1600,
  1067,
  `<rect width="1600" height="1067" fill="#f6efe6"/>
  <ellipse cx="400" cy="200" rx="600" ry="300" fill="#ffffff" opacity="0.8" filter="url(#soft)"/>
  <circle cx="560" cy="560" r="380" fill="#ffffff" stroke="#e6dccf" stroke-width="10"/>
  <circle cx="560" cy="560" r="330" fill="none" stroke="#efe6da" stroke-width="4"/>
  ${croissant(480, 470, 210, -18)}${croissant(660, 660, 190, 12)}
  <circle cx="1170" cy="450" r="300" fill="#ffffff" stroke="#e6dccf" stroke-width="10"/>
  ${bun(1080, 380, 110)}${bun(1270, 420, 100)}${bun(1160, 580, 105)}
  <g transform="translate(1250 860)"><ellipse cy="60" rx="150" ry="30" fill="#2b1608" opacity="0.2" filter="url(#shadow)"/>
    <path d="M -110 -60 L 110 -60 L 90 60 L -90 60 Z" fill="#2f6f73"/><ellipse cy="-60" rx="110" ry="24" fill="#245a5e"/><ellipse cy="-60" rx="92" ry="18" fill="#6b3d1f"/>
    <path d="M 110 -30 Q 170 -20 150 30 Q 135 50 100 40" stroke="#2f6f73" stroke-width="18" fill="none"/></g>
  ${Array.from({ length: 80 }, () => `<circle cx="${between(150, 980)}" cy="${between(220, 900)}" r="${between(1, 2.5)}" fill="#fffdf6" opacity="${between(0.4, 0.9)}"/>`).join("")}`,
);

const cafe = svg(
  1600,
  1067,
  `<rect width="1600" height="1067" fill="#efe2cf"/>
  <rect x="0" y="760" width="1600" height="307" fill="#8a5a3b"/>
  ${Array.from({ length: 16 }, (_, i) => `<line x1="${i * 100}" y1="760" x2="${i * 100 - 40}" y2="1067" stroke="#6e4529" stroke-width="3" opacity="0.5"/>`).join("")}
  <rect x="160" y="120" width="1280" height="520" rx="10" fill="#9cc6cf"/>
  <rect x="160" y="420" width="1280" height="220" fill="#3f7d8c"/>
  <circle cx="1180" cy="260" r="70" fill="#ffe7a8" opacity="0.9"/>
  ${[300, 620, 980].map((x, i) => `<g transform="translate(${x} ${440 - i * 6})"><path d="M -70 0 L 70 0 L 50 32 L -50 32 Z" fill="#f8f1e6"/><line x1="0" y1="0" x2="0" y2="${-110 + i * 10}" stroke="#5a4a3c" stroke-width="5"/><path d="M 4 ${-100 + i * 10} L 4 -12 L 70 -12 Z" fill="#fdfaf3"/></g>`).join("")}
  <g stroke="#f6efe4" stroke-width="16"><line x1="586" y1="120" x2="586" y2="640"/><line x1="1013" y1="120" x2="1013" y2="640"/><line x1="160" y1="380" x2="1440" y2="380"/></g>
  <rect x="150" y="110" width="1300" height="540" rx="14" fill="none" stroke="#f6efe4" stroke-width="22"/>
  ${[420, 1180].map((x) => `<g transform="translate(${x} 0)"><line x1="0" y1="0" x2="0" y2="160" stroke="#3a2c22" stroke-width="4"/><path d="M -70 230 Q 0 130 70 230 Z" fill="#2f6f73"/><ellipse cx="0" cy="240" rx="40" ry="16" fill="#ffe3a0"/><ellipse cx="0" cy="330" rx="190" ry="90" fill="#ffdf9a" opacity="0.35" filter="url(#soft)"/></g>`).join("")}
  ${[380, 1220]
    .map(
      (
        x,
      ) => `<g transform="translate(${x} 760)"><ellipse cy="-10" rx="170" ry="26" fill="#5b3a22"/><rect x="-12" y="-10" width="24" height="200" fill="#4a2f1b"/><rect x="-80" y="180" width="160" height="16" rx="8" fill="#4a2f1b"/>
    <rect x="-60" y="-52" width="40" height="42" rx="6" fill="#f8f1e6"/><path d="M 30 -38 a 34 20 0 1 0 0.1 0" fill="#dc9a45"/></g>`,
    )
    .join("")}
  <g transform="translate(800 700)"><rect x="-150" y="-10" width="300" height="70" rx="8" fill="#6e4529"/><rect x="-170" y="-30" width="340" height="26" rx="8" fill="#4a2f1b"/>
    <path d="M -120 -30 q 30 -60 60 0 Z" fill="#c27a3a"/><path d="M -30 -30 q 40 -70 80 0 Z" fill="#94521f"/><path d="M 70 -30 q 25 -50 50 0 Z" fill="#dc9a45"/></g>
  <g transform="translate(90 650)"><rect x="-40" y="40" width="80" height="80" rx="10" fill="#b5652b"/>${Array.from({ length: 9 }, (_, i) => `<ellipse cx="${Math.cos(i * 0.7) * 40}" cy="${-Math.abs(Math.sin(i * 0.7)) * 90 + 10}" rx="20" ry="50" transform="rotate(${i * 40 - 160} ${Math.cos(i * 0.7) * 40} ${-Math.abs(Math.sin(i * 0.7)) * 90 + 10})" fill="#4d7c4a"/>`).join("")}</g>`,
);

function baker(x, skin, apron, hat) {
  return `<g transform="translate(${x} 0)">
    <path d="M -150 1000 Q -150 690 0 660 Q 150 690 150 1000 Z" fill="#f4f1ea"/>
    <path d="M -90 1000 L -80 760 Q 0 740 80 760 L 90 1000 Z" fill="${apron}"/>
    <rect x="-28" y="600" width="56" height="70" fill="${skin}"/>
    <circle cy="540" r="96" fill="${skin}"/>
    ${hat ? `<path d="M -90 470 Q -110 360 -40 380 Q -20 320 40 370 Q 110 350 90 470 Z" fill="#ffffff" stroke="#e4ded2" stroke-width="4"/><rect x="-92" y="450" width="184" height="34" rx="8" fill="#ffffff" stroke="#e4ded2" stroke-width="4"/>` : `<path d="M -96 540 Q -100 430 0 432 Q 100 430 96 540 Q 80 470 0 478 Q -80 470 -96 540 Z" fill="#3b2a20"/>`}
    <circle cx="-34" cy="548" r="8" fill="#2a1e17"/><circle cx="34" cy="548" r="8" fill="#2a1e17"/>
    <path d="M -30 590 Q 0 612 30 590" stroke="#2a1e17" stroke-width="7" fill="none" stroke-linecap="round"/>
  </g>`;
}

const team = svg(
  1200,
  1000,
  `<rect width="1200" height="1000" fill="#f1e4d0"/>
  <circle cx="600" cy="420" r="420" fill="#f7d9a8" opacity="0.8" filter="url(#soft)"/>
  <rect x="0" y="280" width="1200" height="16" fill="#c9a77c"/>
  ${loaf(180, 250, 150, 80, -4)}${loaf(360, 250, 140, 76, 3, true)}${loaf(840, 250, 150, 80, 2)}${loaf(1020, 250, 140, 76, -5, true)}
  ${baker(300, "#e0b08a", "#2f6f73", true)}${baker(900, "#8d5a3b", "#b5652b", false)}${baker(600, "#f1c9a5", "#1e3a4c", true)}`,
);

const mark = (
  size,
  color,
  bg,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="112" fill="${bg}"/>
  <g fill="none" stroke="${color}" stroke-width="26" stroke-linecap="round">
    <path d="M 256 120 L 256 400"/><path d="M 150 330 Q 256 430 362 330"/><path d="M 206 170 L 306 170"/>
  </g>
  <g fill="${color}">
    ${[0, 1, 2].map((i) => `<ellipse cx="226" cy="${236 + i * 44}" rx="18" ry="36" transform="rotate(-35 226 ${236 + i * 44})"/><ellipse cx="286" cy="${236 + i * 44}" rx="18" ry="36" transform="rotate(35 286 ${236 + i * 44})"/>`).join("")}
    <ellipse cx="256" cy="196" rx="16" ry="30"/>
  </g>
</svg>`;

const logoSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="140" viewBox="0 0 600 140">
  <g transform="translate(10 10) scale(0.234)">${mark(512, "#fdf6ea", "#8c4a1c").replace(/^<svg[^>]*>|<\/svg>$/g, "")}</g>
  <text x="152" y="78" font-family="Georgia, 'Times New Roman', serif" font-size="46" font-weight="700" fill="#5a2d0e">Harbor Bakery</text>
  <text x="154" y="112" font-family="Helvetica, Arial, sans-serif" font-size="17" letter-spacing="3" fill="#2f6f73">SOURDOUGH · PASTRY · COFFEE</text>
</svg>`;

const social = svg(
  1200,
  630,
  `<rect width="1200" height="630" fill="#8c4a1c"/>
  <ellipse cx="950" cy="330" rx="420" ry="340" fill="#b5652b" opacity="0.7" filter="url(#soft)"/>
  ${loaf(930, 300, 420, 230, -8)}${round(760, 470, 90, 15)}${round(1090, 480, 85, -10)}
  <g transform="translate(70 90) scale(0.28)">${mark(512, "#8c4a1c", "#fdf6ea").replace(/^<svg[^>]*>|<\/svg>$/g, "")}</g>
  <text x="70" y="340" font-family="Georgia, 'Times New Roman', serif" font-size="74" font-weight="700" fill="#fdf6ea">Harbor Bakery</text>
  <text x="72" y="400" font-family="Helvetica, Arial, sans-serif" font-size="30" fill="#f6dcae">Bread baked at dawn by the water</text>`,
);

const out = (name) => join(here, name);
await sharp(Buffer.from(hero)).jpeg({ quality: 82, mozjpeg: true }).toFile(out("hero.jpg"));
await sharp(Buffer.from(loaves)).jpeg({ quality: 82, mozjpeg: true }).toFile(out("loaves.jpg"));
await sharp(Buffer.from(pastries)).jpeg({ quality: 82, mozjpeg: true }).toFile(out("pastries.jpg"));
await sharp(Buffer.from(cafe)).jpeg({ quality: 82, mozjpeg: true }).toFile(out("cafe.jpg"));
await sharp(Buffer.from(team)).jpeg({ quality: 82, mozjpeg: true }).toFile(out("team.jpg"));
await sharp(Buffer.from(social)).jpeg({ quality: 85, mozjpeg: true }).toFile(out("social.jpg"));
await sharp(Buffer.from(mark(512, "#fdf6ea", "#8c4a1c")))
  .png()
  .toFile(out("favicon.png"));
writeFileSync(out("logo.svg"), logoSvg);
process.stdout.write(`demo assets written to ${here}\n`);
