/**
 * The Node HTTP server Wasl listens with, and how long it waits for a request to arrive. Node's
 * own deadline (`requestTimeout`, 5 minutes) covers the headers and the body as one, so a client
 * sending a byte every few seconds holds its connection for minutes, and any upload slower than
 * the deadline is cut; and Node answers it with a bare 408. Here:
 *
 * - the headers must arrive within the headers timeout (Node's `headersTimeout`);
 * - the body must arrive within the request timeout (`WASL_REQUEST_TIMEOUT`), which every
 *   `BODY_MIN_RATE` bytes received lengthens by a second: a large upload that keeps coming (an
 *   import of up to 50 MiB) is never cut, a trickle is. While Wasl itself has received bytes it has
 *   not read yet, the wait is Wasl's, and the clock starts again once Wasl has read them;
 * - a request past either is answered `408 {"message": ...}` and its connection closed; Node's
 *   other refusals of a malformed request get a JSON body too.
 *
 * Only receiving the request is timed: once it has arrived, an answer may take as long as it
 * takes (the notification stream, a large CSV download), and a kept-alive connection may idle
 * between requests (Node's `keepAliveTimeout` closes it after 5 seconds).
 */
import { Duration } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"

/** The longest the headers of a request may take to arrive. */
export const HEADERS_TIMEOUT: Duration.Duration = Duration.seconds(10)

/** The default of `WASL_REQUEST_TIMEOUT`: how long a request's body may take to arrive. */
export const DEFAULT_REQUEST_TIMEOUT: Duration.Duration = Duration.seconds(30)

/** The bytes of a body that earn it one more second to arrive: 32 KiB, so 256 kbit/s or faster is never cut. */
export const BODY_MIN_RATE = 32 * 1024

/** How long a request may take to arrive. */
export interface ReceiveTimeouts {
  /** The body's time (`WASL_REQUEST_TIMEOUT`), lengthened by a second for every `BODY_MIN_RATE` bytes received. */
  readonly request: Duration.Duration
  /** The headers' time; by default `HEADERS_TIMEOUT`, or the request timeout when that is shorter. */
  readonly headers?: Duration.Duration | undefined
}

const REQUEST_TIMEOUT_MESSAGE = "The request was not received in time."

/** A raw HTTP answer with a JSON `{ message }` body that closes the connection. */
const rawAnswer = (status: number, reason: string, message: string): string => {
  const body = JSON.stringify({ message })
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
}

const TIMED_OUT = rawAnswer(408, "Request Timeout", REQUEST_TIMEOUT_MESSAGE)

/** Node's refusals of a request before it reaches Wasl, by error code, each with Wasl's error body. */
const REFUSALS: Readonly<Record<string, string>> = {
  ERR_HTTP_REQUEST_TIMEOUT: TIMED_OUT,
  HPE_HEADER_OVERFLOW: rawAnswer(431, "Request Header Fields Too Large", "The request headers are too large."),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: rawAnswer(413, "Payload Too Large", "The request body is too large.")
}
const MALFORMED = rawAnswer(400, "Bad Request", "The request is not valid HTTP.")

/**
 * Answers `answer` on the connection and closes it, unless an answer has already begun there
 * (its bytes would corrupt it): then the connection is only closed.
 */
const refuse = (socket: Socket, answer: string, response: ServerResponse | undefined): void => {
  if (socket.destroyed) return
  if (!socket.writable || response?.headersSent === true) {
    socket.destroy()
    return
  }
  socket.end(answer, () => socket.destroy())
}

/**
 * Times the body of `request`: when its time is up and it has not all arrived, answers 408 and
 * closes the connection (the handler waiting for the body sees the connection close and stops).
 *
 * The body is looked at every `sampleMillis`. While Wasl holds bytes it has received and not
 * read yet, the wait is Wasl's: the client's time starts again at the first look that finds none
 * after one that found some, so it is never charged for the moments in which Wasl had not read
 * what had arrived.
 */
const timeBody = (requestMillis: number, request: IncomingMessage, response: ServerResponse): void => {
  const socket = request.socket
  const sampleMillis = Math.max(10, Math.min(1000, Math.floor(requestMillis / 8)))
  let started = Date.now()
  let bytesAtStart = socket.bytesRead
  let heldUnread = false
  const check = (): void => {
    if (request.complete || response.writableEnded || socket.destroyed) return
    const holding = request.readableLength > 0
    if (holding || heldUnread) {
      started = Date.now()
      bytesAtStart = socket.bytesRead
    } else {
      const allowed = requestMillis + ((socket.bytesRead - bytesAtStart) / BODY_MIN_RATE) * 1000
      if (Date.now() - started >= allowed) {
        refuse(socket, TIMED_OUT, response)
        return
      }
    }
    heldUnread = holding
    timer = setTimeout(check, sampleMillis)
  }
  let timer = setTimeout(check, sampleMillis)
  response.once("close", () => clearTimeout(timer))
}

/**
 * A Node HTTP server that times the arrival of each request as the module says. Give it to
 * `NodeHttpServer.layer` in place of `createServer`.
 */
export const createWaslServer = (timeouts: ReceiveTimeouts): Server => {
  const requestMillis = Math.ceil(Duration.toMillis(timeouts.request))
  // Node takes whole milliseconds.
  const headersMillis = Math.ceil(Duration.toMillis(timeouts.headers ?? Duration.min(HEADERS_TIMEOUT, timeouts.request)))
  const server = createServer({
    headersTimeout: headersMillis,
    // Node's deadline for the whole request would cut a large upload that keeps coming: the body
    // is timed by `timeBody` instead.
    requestTimeout: 0,
    // How often Node looks for headers past their time (30 seconds by default).
    connectionsCheckingInterval: Math.max(1, Math.floor(Math.min(1000, headersMillis / 2)))
  })
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    // The answer in progress on the connection, if any: Node keeps it there, and checks it the same way.
    const response = (socket as { _httpMessage?: ServerResponse })._httpMessage
    refuse(socket, REFUSALS[error.code ?? ""] ?? MALFORMED, response)
  })
  const timed = (request: IncomingMessage, response: ServerResponse) => timeBody(requestMillis, request, response)
  server.on("request", timed)
  // A request with `Expect: 100-continue` comes as this event instead of `request`.
  server.on("checkContinue", timed)
  return server
}
