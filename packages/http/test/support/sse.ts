/**
 * A Server-Sent Events client for tests, over fetch and Effect's SSE parser: it connects, waits
 * for the first bytes (the stream sends them once it listens), and collects the events.
 */
import { Sse } from "effect/encoding"

export interface SseConnection {
  /** The response status. */
  readonly status: number
  /** The response's content type. */
  readonly contentType: string | null
  /** The events received so far. */
  readonly events: ReadonlyArray<Sse.Event>
  /** How many chunks arrived (heartbeats included). */
  readonly chunks: () => number
  /** Waits until `count` events arrived, at most `timeoutMs`; answers them all. */
  readonly waitFor: (count: number, timeoutMs?: number) => Promise<ReadonlyArray<Sse.Event>>
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>
  /** Closes the connection. */
  readonly close: () => void
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Opens `GET path` on `url` as an event stream with the bearer `token` and optional `Last-Event-ID`. */
export const openSse = async (
  url: string,
  path: string,
  headers: Record<string, string>
): Promise<SseConnection> => {
  const abort = new AbortController()
  const response = await fetch(`${url}${path}`, {
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal
  })
  const events: Array<Sse.Event> = []
  let chunks = 0
  const parser = Sse.makeParser((event) => {
    if (event._tag === "Event") events.push(event)
  })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let first: (() => void) | undefined
  const firstChunk = new Promise<void>((resolve) => {
    first = resolve
  })
  const ended = (async () => {
    try {
      while (true) {
        const { done, value } = await reader.read()
        if (done) return
        chunks++
        parser.feed(decoder.decode(value, { stream: true }))
        first?.()
      }
    } catch {
      // Aborted by close().
    } finally {
      first?.()
    }
  })()
  if (response.status === 200) await firstChunk
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    events,
    chunks: () => chunks,
    waitFor: async (count, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs
      while (events.length < count && Date.now() < deadline) await sleep(20)
      return events
    },
    ended,
    close: () => abort.abort()
  }
}
