// A baseline for the page cache's hit path: plain node:http answering every request with one recorded answer
// (status, headers and the exact bytes Atrium's cache sent for a page), as cheaply as Node allows. Beside it, a
// hit's ratio is what the cache's own work costs; beside the shared node-http.mjs (a 2 KB page, two headers),
// what the page's size and its headers cost as well.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const { status, headers, body } = JSON.parse(readFileSync(process.env.REPLAY_FILE, "utf8"));
const bytes = Buffer.from(body, "base64");
createServer((_req, res) => {
  res.writeHead(status, headers);
  res.end(bytes);
}).listen(Number(process.env.PORT), "127.0.0.1");
