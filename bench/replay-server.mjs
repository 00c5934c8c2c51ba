// A baseline for the page cache's hit path: plain node:http answering every request with one recorded answer
// (status, headers and the exact bytes Atrium's cache sent for a page), as cheaply as Node allows. Beside it, a
// hit's ratio is what the cache's own work costs; beside the shared node-http.mjs (a 2 KB page, two headers),
// what the page's size and its headers cost as well.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const { status, headers, body } = JSON.parse(readFileSync(process.env.REPLAY_FILE, "utf8"));
const bytes = Buffer.from(body, "base64");
// REPLAY_HEADERS=body: only the headers that describe the bytes, so the body's share and the headers' share of the
// answer's cost can be told apart.
const DESCRIBING = new Set(["content-type", "content-length", "content-encoding"]);
const sent =
  process.env.REPLAY_HEADERS === "body"
    ? Object.fromEntries(Object.entries(headers).filter(([name]) => DESCRIBING.has(name.toLowerCase())))
    : headers;
createServer((_req, res) => {
  res.writeHead(status, sent);
  res.end(bytes);
}).listen(Number(process.env.PORT), "127.0.0.1");
