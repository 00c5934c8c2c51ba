/**
 * An HTTP/1.1 client on a bare socket, for what fetch hides: a client that keeps sending a body while the
 * server has already answered, `Expect: 100-continue`, several requests on one kept-alive connection, and
 * whether an answer arrived whole or the connection was reset under it.
 */
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The body's size in bytes (filled with "x"); sent after the headers, in 64 KB writes. */
  bodyBytes?: number;
  /** Send the body chunked (no Content-Length) instead of with Content-Length. */
  chunked?: boolean;
  /** Send `Expect: 100-continue` and wait for the interim answer (or a final one) before sending the body. */
  expectContinue?: boolean;
}

/** One parsed response out of the bytes read so far, or undefined while it is incomplete. */
export function parseResponse(buffer: Buffer): { response: RawResponse; rest: Buffer } | undefined {
  const headEnd = buffer.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const [statusLine = "", ...lines] = buffer.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let offset = headEnd + 4;
  // An interim 1xx answer has no body: the caller reads the final one after it.
  if (status >= 100 && status < 200) return { response: { status, headers, body: "" }, rest: buffer.subarray(offset) };
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const parts: Buffer[] = [];
    for (;;) {
      const sizeEnd = buffer.indexOf("\r\n", offset);
      if (sizeEnd < 0) return undefined;
      const size = parseInt(buffer.subarray(offset, sizeEnd).toString("latin1"), 16);
      if (buffer.length < sizeEnd + 2 + size + 2) return undefined;
      if (size === 0) {
        const body = Buffer.concat(parts).toString("utf8");
        return { response: { status, headers, body }, rest: buffer.subarray(sizeEnd + 4) };
      }
      parts.push(buffer.subarray(sizeEnd + 2, sizeEnd + 2 + size));
      offset = sizeEnd + 2 + size + 2;
    }
  }
  const length = Number(headers["content-length"] ?? 0);
  if (buffer.length < offset + length) return undefined;
  return {
    response: { status, headers, body: buffer.subarray(offset, offset + length).toString("utf8") },
    rest: buffer.subarray(offset + length),
  };
}

/**
 * Sends one request and its whole body before reading the answer, as most clients do (they do not watch for
 * an early answer while they upload). Resolves with the final response; rejects with the socket's error
 * (ECONNRESET, EPIPE) or "closed" when the connection ended before a whole answer: what such a client sees
 * when the server closes while it is still sending (the unread answer is lost with the reset).
 */
export function rawRequest(base: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  return exchange(socket, url.host, path, options).finally(() => socket.destroy());
}

/** The same on a connection the caller holds (to send a second request on a kept-alive one). */
export function exchange(socket: Socket, host: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const { method = "POST", bodyBytes = 0, chunked = false, expectContinue = false } = options;
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${host}`,
    chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${bodyBytes}`,
    ...(expectContinue ? ["Expect: 100-continue"] : []),
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ].join("\r\n");

  return new Promise<RawResponse>((resolve, reject) => {
    if (socket.destroyed || socket.readableEnded) return reject(new Error("the server had closed the connection"));
    let buffer: Buffer = Buffer.alloc(0);
    let done = false;
    let mayWrite = !expectContinue;
    let sent = 0;
    let startBody: () => void = () => undefined;

    const finish = (error?: Error, response?: RawResponse) => {
      if (done) return;
      done = true;
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("close", onClose);
      if (response) resolve(response);
      else reject(error ?? new Error("closed"));
    };
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = parseResponse(buffer);
        if (!parsed) return;
        buffer = parsed.rest;
        if (parsed.response.status >= 200) return finish(undefined, parsed.response);
        mayWrite = true;
        startBody();
      }
    };
    const onError = (error: Error) => finish(error);
    const onClose = () => finish(new Error(`closed before a whole answer (${buffer.length} bytes read)`));
    socket.on("data", onData);
    socket.on("error", onError);
    // Writes still queued when the answer arrived may fail after it (EPIPE): the answer is what counts.
    if (socket.listenerCount("error") === 1) socket.on("error", () => undefined);
    socket.on("close", onClose);

    const piece = Buffer.alloc(65_536, "x");
    const writeBody = () => {
      while (!done && sent < bodyBytes) {
        const size = Math.min(piece.length, bodyBytes - sent);
        const bytes = piece.subarray(0, size);
        sent += size;
        const framed = chunked
          ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), bytes, Buffer.from("\r\n")])
          : bytes;
        if (!socket.write(framed)) return void socket.once("drain", writeBody);
      }
      if (done) return;
      socket.write(chunked ? "0\r\n\r\n" : "", () => socket.resume());
    };
    let started = false;
    startBody = () => {
      if (started || !mayWrite) return;
      started = true;
      // Read nothing more until the body is sent, as a client busy uploading does.
      socket.pause();
      writeBody();
    };
    socket.write(`${head}\r\n\r\n`, () => startBody());
  });
}
