/**
 * The body of `GET /api/notifications/stream`: the caller's live notifications as Server-Sent
 * Events (rendered by Effect's SSE encoder), a comment line while nothing happens so that proxies
 * and clients keep the connection, and an end when the server shuts down.
 */
import { Context, Duration, Effect, Option, Schema, Stream } from "effect"
import { Sse } from "effect/encoding"
import { HttpServerResponse } from "effect/http"
import { type NotificationFeed, type NotificationRepository, notificationStream, type Principal } from "@wasl/core"
import { NotificationEvent } from "./notifications-api.ts"

/** How often an idle stream sends its heartbeat comment: 15 seconds unless a test provides less. */
export const SseHeartbeat: Context.Reference<Duration.Duration> = Context.Reference<Duration.Duration>(
  "@wasl/http/SseHeartbeat",
  { defaultValue: () => Duration.seconds(15) }
)

// The SSE encoder renders events only; a comment (a line starting with ":") is ignored by every
// client and is what keeps an idle connection open.
const HEARTBEAT = ":\n\n"

const encodeEvent = Schema.encodeEffect(NotificationEvent)

/** `Last-Event-ID` as a notification id; anything else resumes nothing. */
export const lastEventId = (header: string | undefined): Option.Option<number> =>
  header !== undefined && /^[0-9]{1,15}$/.test(header.trim()) ? Option.some(Number(header.trim())) : Option.none()

/**
 * The caller's notification stream as a `text/event-stream` response. The first bytes (a
 * heartbeat) go out once listening has started, so a client that sees them misses nothing raised
 * afterwards; a heartbeat follows every `heartbeat` ({@link SseHeartbeat}). It ends when `closing`
 * completes (the server shutting down) or the feed ends.
 */
export const notificationStreamResponse = (
  principal: Principal,
  lastId: Option.Option<number>,
  options: { readonly closing: Effect.Effect<void>; readonly heartbeat: Duration.Duration }
): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  NotificationFeed | NotificationRepository
> =>
  Effect.gen(function*() {
    const services = yield* Effect.context<NotificationFeed | NotificationRepository>()
    const body = Stream.unwrap(Effect.map(notificationStream(principal, lastId), (notifications) => {
      const events = notifications.pipe(
        Stream.mapEffect((notification) =>
          Effect.orDie(encodeEvent({ id: String(notification.id), event: "message", data: notification }))
        ),
        Stream.map((event) => Sse.encoder.write({ _tag: "Event", ...event }))
      )
      const heartbeats = Stream.tick(options.heartbeat).pipe(Stream.as(HEARTBEAT))
      return Stream.merge(events, heartbeats, { haltStrategy: "left" })
    })).pipe(Stream.interruptWhen(options.closing), Stream.provideContext(services))
    return HttpServerResponse.stream(Stream.encodeText(body), {
      contentType: "text/event-stream",
      headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
    })
  })

