/**
 * A request over `node:http` with what `fetch` will not do: sent from a chosen local address
 * (127.0.0.0/8 all reach the server on Linux, so each address is another client) and with headers
 * as written (a Host of its own too).
 */
import { request as httpRequest } from "node:http"
import type { Reply } from "./client.ts"

/** What {@link requestFrom} sends besides the method and URL. */
export interface RequestFromOptions {
  /** The local address to send from; the system's choice when absent. */
  readonly from?: string
  /** Headers, as written. */
  readonly headers?: Record<string, string>
  /** A body, sent as JSON. */
  readonly body?: unknown
}

/** Sends the request; the answer's body is parsed when it is JSON. */
export const requestFrom = (method: string, url: string, options: RequestFromOptions = {}): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const text = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = httpRequest(url, {
      method,
      ...(options.from === undefined ? {} : { localAddress: options.from }),
      headers: {
        accept: "application/json",
        ...(text === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(text) }),
        ...options.headers
      }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        const headers = new Headers()
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") headers.set(name, value)
          else if (Array.isArray(value)) for (const one of value) headers.append(name, one)
        }
        const json = /json/.test(res.headers["content-type"] ?? "") && raw !== ""
        resolve({ status: res.statusCode ?? 0, headers, body: json ? JSON.parse(raw) : undefined, text: raw })
      })
    })
    req.on("error", reject)
    req.end(text)
  })
