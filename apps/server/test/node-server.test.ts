/**
 * How long Wasl's Node server waits for a request to arrive, over raw sockets, with short
 * timeouts (2 s for the body, 1 s for the headers): headers or a body that trickle in past their
 * time get `408 {"message": ...}` and a closed connection; a large upload that keeps coming is
 * never cut, however long it takes, nor a body that waits for Wasl to read it; a kept-alive
 * connection may idle between requests; and once a request has arrived its answer is never timed
 * (the notification stream stays open). Node's other refusals of a malformed request get a JSON
 * body too.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Duration, Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WaslPostgres } from "@wasl/adapters/Deployment"
import { TestDatabase } from "@wasl/adapters/testing"
import { bootstrapAccount } from "@wasl/core/Accounts"
import { serveWaslWith, SseHeartbeat } from "@wasl/http/Routes"
import { createWaslServer } from "../src/node-server.ts"

const REQUEST_TIMEOUT_MS = 2000
const HEADERS_TIMEOUT_MS = 1000
const TIMED_OUT = { message: "The request was not received in time." }
/** How long the slow reader waits before it reads a body: past the timeout, and past what the received bytes would add to it. */
const SLOW_READER_WAIT_MS = 6000

/**
 * A route that reads its body only after `?wait=` milliseconds (by default `SLOW_READER_WAIT_MS`),
 * and answers its length.
 */
const SlowReader = HttpRouter.add(
  "POST",
  "/slow-reader",
  Effect.gen(function*() {
    const url = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://localhost")
    yield* Effect.sleep(Duration.millis(Number(url.searchParams.get("wait") ?? SLOW_READER_WAIT_MS)))
    const body = yield* Effect.orDie(Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => request.text))
    return HttpServerResponse.text(String(body.length))
  })
)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A raw connection: what the server sent so far, and when it closed the connection. */
interface Connection {
  readonly socket: Socket
  readonly received: () => string
  /** Resolves with the milliseconds from the connection to its close, once the server closed it. */
  readonly closed: Promise<number>
  /** Resolves once `pattern` is in what the server sent. */
  readonly receivedMatching: (pattern: RegExp) => Promise<string>
}

const open = (port: number): Promise<Connection> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    let text = ""
    const waiting: Array<{ pattern: RegExp; resolve: (text: string) => void }> = []
    const socket = connect({ port, host: "127.0.0.1" }, () => resolve(connection))
    socket.on("error", () => {})
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1")
      for (const wait of waiting.splice(0)) {
        if (wait.pattern.test(text)) wait.resolve(text)
        else waiting.push(wait)
      }
    })
    const closed = new Promise<number>((done) => socket.on("close", () => done(Date.now() - started)))
    const connection: Connection = {
      socket,
      received: () => text,
      closed,
      receivedMatching: (pattern) =>
        pattern.test(text) ? Promise.resolve(text) : new Promise((done) => waiting.push({ pattern, resolve: done }))
    }
    socket.once("error", reject)
  })

/** Writes `parts` one at a time, `everyMs` apart, until done or the server closed the connection. */
const dribble = async (connection: Connection, parts: ReadonlyArray<string | Buffer>, everyMs: number) => {
  for (const part of parts) {
    if (connection.socket.destroyed || connection.socket.writableEnded) return
    connection.socket.write(part)
    await sleep(everyMs)
  }
}

/** The status and JSON body of the one answer in `text`. */
const answerOf = (text: string) => {
  const [head, body] = text.split("\r\n\r\n", 2) as [string, string]
  return { status: Number(head.split(" ")[1]), head, body: body === "" ? undefined : JSON.parse(body) }
}

describe("the Node server's time for a request to arrive", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let port: number
  let token: string

  beforeAll(async () => {
    runtime = ManagedRuntime.make(
      serveWaslWith(SlowReader).pipe(
        Layer.provideMerge(NodeHttpServer.layer(
          () => createWaslServer({ request: Duration.millis(REQUEST_TIMEOUT_MS), headers: Duration.millis(HEADERS_TIMEOUT_MS) }),
          { port: 0, host: "127.0.0.1" }
        )),
        Layer.provideMerge(WaslPostgres.layerClient({ secretKey: "08".repeat(32) })),
        Layer.provideMerge(TestDatabase.pglite),
        Layer.provide(Layer.succeed(SseHeartbeat, Duration.millis(200)))
      )
    )
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
    port = address.port
    token = (await runtime.runPromise(bootstrapAccount({
      account: "Timeouts",
      email: "owner@timeouts.test",
      password: "a long enough password",
      plan: "business",
      otpCredits: 0
    }))).token
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("answers 408 in JSON and closes the connection when the headers trickle in past their time", async () => {
    const connection = await open(port)
    connection.socket.write("GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    void dribble(connection, Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: a\r\n`), 200)
    const closedAfter = await connection.closed
    expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100)
    expect(closedAfter).toBeLessThan(HEADERS_TIMEOUT_MS + 2000)
    const answer = answerOf(connection.received())
    expect(answer.status).toBe(408)
    expect(answer.head).toMatch(/\r\ncontent-type: application\/json\r\n/i)
    expect(answer.head).toMatch(/\r\nconnection: close$/i)
    expect(answer.body).toEqual(TIMED_OUT)
  })

  it("answers 408 in JSON and closes the connection when the body trickles in past its time", async () => {
    const connection = await open(port)
    connection.socket.write(
      `POST /api/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    void dribble(connection, Array.from({ length: 99 }, () => " "), 300)
    const closedAfter = await connection.closed
    expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100)
    expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + 2000)
    const answer = answerOf(connection.received())
    expect(answer.status).toBe(408)
    expect(answer.body).toEqual(TIMED_OUT)
  })

  it("never cuts a large upload that keeps coming, however longer than the timeout it takes", async () => {
    const csv = "firstname\r\n" + Array.from({ length: 40_000 }, (_, i) => `Person ${String(i).padStart(6, "0")}\r\n`).join("")
    const body = Buffer.from(
      "--b0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"people.csv\"\r\nContent-Type: text/csv\r\n\r\n" +
        csv + "\r\n--b0undary--\r\n"
    )
    const connection = await open(port)
    connection.socket.write(
      `POST /api/contacts/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: application/json\r\n` +
        `Content-Type: multipart/form-data; boundary=b0undary\r\nContent-Length: ${body.length}\r\n\r\n`
    )
    // 16 KiB every 100 ms, at the pace of the client and not of Wasl: about 4 s for the 600 kB,
    // twice the timeout.
    const chunks = Array.from({ length: Math.ceil(body.length / 16384) }, (_, i) => body.subarray(i * 16384, (i + 1) * 16384))
    const started = Date.now()
    await dribble(connection, chunks, 100)
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS)
    await Promise.race([connection.receivedMatching(/\r\n\r\n\{.*\}$/s), connection.closed])
    const answer = answerOf(connection.received())
    expect(answer.status).toBe(202)
    expect(answer.body.data).toMatchObject({ status: "queued", rows_total: 40_000 })
    connection.socket.destroy()
  })

  it("does not count against the client the time Wasl takes to read what has arrived", async () => {
    const body = "x".repeat(1024 * 1024)
    const connection = await open(port)
    connection.socket.write(`POST /slow-reader HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
    await Promise.race([connection.receivedMatching(/\r\n\r\n\d+$/), connection.closed])
    const [head, length] = connection.received().split("\r\n\r\n") as [string, string]
    expect(head).toMatch(/^HTTP\/1\.1 200 /)
    expect(length).toBe(String(body.length))
    connection.socket.destroy()
  })

  it("gives the client its whole time from the moment Wasl read what had arrived, not from an earlier look", async () => {
    // The first part fills what Node buffers for a request and waits there, unread, across two
    // of the body's timeouts; the client sends the rest a little more than a timeout after it
    // sent the first part, but well within a timeout of the moment Wasl read it.
    const first = "x".repeat(20 * 1024)
    const rest = "y".repeat(1024)
    const wait = REQUEST_TIMEOUT_MS * 2.5
    const connection = await open(port)
    connection.socket.write(
      `POST /slow-reader?wait=${wait} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${first.length + rest.length}\r\n\r\n${first}`
    )
    await sleep(REQUEST_TIMEOUT_MS * 3 + 300)
    connection.socket.write(rest)
    await Promise.race([connection.receivedMatching(/\r\n\r\n\d+$/), connection.closed])
    const [head, length] = connection.received().split("\r\n\r\n") as [string, string]
    expect(head).toMatch(/^HTTP\/1\.1 200 /)
    expect(length).toBe(String(first.length + rest.length))
    connection.socket.destroy()
  })

  it("serves a kept-alive connection's next request after it idled longer than both timeouts", async () => {
    const connection = await open(port)
    const request = "GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    connection.socket.write(request)
    await connection.receivedMatching(/\{"status":"ok"\}$/)
    await sleep(REQUEST_TIMEOUT_MS + 500)
    connection.socket.write(request)
    const both = await connection.receivedMatching(/\{"status":"ok"\}[^]*\{"status":"ok"\}$/)
    expect(both.match(/HTTP\/1\.1 200 /g)).toHaveLength(2)
    connection.socket.destroy()
  })

  it("keeps the notification stream open past the timeouts: only receiving the request is timed", async () => {
    const connection = await open(port)
    connection.socket.write(
      `GET /api/notifications/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`
    )
    await connection.receivedMatching(/^HTTP\/1\.1 200 /)
    await sleep(REQUEST_TIMEOUT_MS + 1000)
    const before = connection.received().length
    await sleep(500)
    expect(connection.socket.destroyed).toBe(false)
    expect(connection.received().length).toBeGreaterThan(before) // heartbeats still coming
    expect(connection.received()).not.toMatch(/ 408 /)
    connection.socket.destroy()
  })

  it("answers a request that is not HTTP with 400 in JSON", async () => {
    const connection = await open(port)
    connection.socket.write("NOT HTTP\r\n\r\n")
    await connection.closed
    const answer = answerOf(connection.received())
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ message: "The request is not valid HTTP." })
  })
})
