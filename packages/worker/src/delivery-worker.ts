/**
 * The delivery worker: loops over the core's use-cases, run
 * in the caller's scope. Any number of workers, in any number of processes, share one database:
 * every unit of work is claimed with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL).
 *
 * - fan-out: `fanOutEvents` until the outbox is drained, then waits for an outbox signal (NOTIFY
 *   on insert) or the poll interval.
 * - sending: keeps up to `concurrency` attempts in flight. It claims due deliveries in batches as
 *   slots free up, runs `sendAttempt` for each in its own fiber (secrets opened once per webhook,
 *   `makeSignerCache`), and hands the results to a recorder fiber that writes them in batches
 *   (`recordAttempts`). With nothing due it sleeps until the earliest pending delivery comes due
 *   (a retry), a deliveries signal, a fan-out by this worker, or the poll interval — whichever is
 *   first. The poll also picks up deliveries whose lease ran out in a crashed worker.
 * - mail: `sendPendingEmails` (the queued Webhook Deactivated mails), on every poll and at once
 *   after a delivery exhausted its attempts.
 * - OTP sweep: `sweepOtpReservations` every `otpSweepInterval`, refunding the credits of send-otp
 *   calls whose process stopped between charging and storing the outcome (core
 *   messaging/otp-reservation.ts); rows are taken `FOR UPDATE SKIP LOCKED`, so every worker runs it.
 * - imports: `processNextImport` while an import waits, else it looks again every poll interval.
 *   Each call claims the import whose account's turn it is (queued, between two batches, or left
 *   by a crashed worker once its claim ran out) and writes one batch of `importBatch` rows in one
 *   transaction, which lets it go: accounts take turns a batch each, so one account's large
 *   imports never keep another's waiting. Every worker runs it; while one holds an account's
 *   import, the others take other accounts'.
 * - pruning: `pruneExpired` every `pruneInterval`, batch after batch while a batch comes back full,
 *   deleting the rows whose retention ran out (`RetentionPolicy`: finished deliveries and their
 *   attempts, read notifications, expired OTP verifications). Each batch is one short statement
 *   that skips locked rows, so deliveries going on never wait for it, and every worker runs it.
 * - WhatsApp: `drainWhatsAppInbox` while stored callbacks of Meta's wait (a batch at a time, a few
 *   processed at once), woken by the inbox's signal (NOTIFY on insert) or the poll interval, which
 *   also picks up bodies whose retry time came or whose lease ran out in a crashed worker. A body
 *   whose processing keeps failing is retried after a backoff, then dropped with a log line
 *   (core use-cases/whatsapp-inbox-drain.ts); the outcomes are counted (worker-metrics.ts).
 * - template reviews: `syncAllTemplateReviews` every `templateSyncInterval` (15 minutes by
 *   default): every submitted template's review is read again from Meta, so a review webhook that
 *   never arrived is made up for. Applying a review is idempotent, so every worker may run it.
 * - campaigns: `makeCampaignRunner(options.campaigns).runNext` while a campaign waits, else it
 *   looks again every poll interval. Each step resolves a batch of a starting campaign's audience,
 *   sends a round (a few seconds) of a running one at its number's pace (`sendRate`, default 80 a
 *   second; WhatsApp's throttling answers make it wait and resume), resumes a paused one whose
 *   allowance came back, or completes one; campaigns take turns, a step each. Stopping lets the
 *   sends in flight finish and gives the claimed recipients not yet sent back (core
 *   use-cases/campaign-run.ts).
 * - exports: `runNextExport` while an export waits, else it looks again every poll interval. Each
 *   call claims the export whose account's turn it is and writes one batch of records in a short
 *   transaction, which lets it go: accounts take turns, as for imports. Each batch is a
 *   heartbeat, so a long export does not make the worker unready. Stopping mid-export loses at
 *   most the batch being written: another worker resumes after the last one.
 *
 * Stopping (the scope closes, e.g. on SIGTERM): the loops are interrupted; an attempt in flight
 * is interrupted too and its lease released at once, so another worker (or the next start) sends
 * it again — at-least-once, idempotent by delivery id; attempts already made but not yet
 * recorded are recorded. A failure inside a loop (the database
 * restarting) is logged and the loop goes on after a pause; it never stops the worker.
 *
 * Observed: with `WorkerLoops` provided, every loop beats as it makes progress (the readiness of
 * `WorkerHealthRoutes`), and recorded attempts update the worker's metrics (worker-metrics.ts).
 */
import { type SecretBox } from "@wasl/core/Auth"
import {
  type ClaimedDelivery,
  DeliveryPolicy,
  deliveryLeaseFor,
  DeliveryRepository,
  fanOutEvents,
  leaseOf,
  makeSignerCache,
  type PendingAttempt,
  recordAttempts,
  sendAttempt
} from "@wasl/core/Deliveries"
import { type Transactor } from "@wasl/core/Deployment"
import { type Outbox, QueueSignals, traceParentSpan } from "@wasl/core/Events"
import { type ExportRunServices, runNextExport } from "@wasl/core/Exports"
import { type ImportProcessingServices, processNextImport } from "@wasl/core/Imports"
import { type Mailer } from "@wasl/core/Mail"
import {
  type CampaignRunOptions,
  type CampaignRunServices,
  makeCampaignRunner,
  syncAllTemplateReviews,
  type TemplateReviewServices
} from "@wasl/core/Messaging"
import { type NotificationRepository, sendPendingEmails } from "@wasl/core/Notifications"
import { type OtpReservationRepository, sweepOtpReservations } from "@wasl/core/Otp"
import { pruneExpired, type Retention } from "@wasl/core/Retention"
import { type WebhookTransport } from "@wasl/core/Webhooks"
import {
  drainWhatsAppInbox,
  processWhatsAppWebhook,
  type WhatsAppInbox,
  type WhatsAppWebhookServices
} from "@wasl/core/WhatsApp"
import { Cause, Clock, DateTime, Duration, Effect, FiberSet, Latch, Layer, Option, Queue, References, type Scope } from "effect"
import type { SecureRandom } from "effect/crypto"
import { type MediaFetchLoopServices, type MediaFetchOptions, makeMediaFetchRound } from "./media-fetch.ts"
import { WorkerLoops, type WorkerLoopsShape } from "./worker-loops.ts"
import { recordAttemptMetrics, recordWhatsAppDrainMetrics, recordWhatsAppWebhookSummary } from "./worker-metrics.ts"

/**
 * The ports the worker runs on, all part of the Wasl services an adapter layer of
 * `@wasl/adapters` provides. `DeliveryPolicy` (the retry schedule and timeout) and
 * `RetentionPolicy` are not listed: they default to the documented delivery settings (six
 * attempts over a day, 30-second timeouts) and the standard retention, and a deployment may
 * provide its own.
 */
export type DeliveryWorkerServices =
  | CampaignRunServices
  | DeliveryRepository
  | ExportRunServices
  | Mailer
  | NotificationRepository
  | OtpReservationRepository
  | Outbox
  | QueueSignals
  | Retention
  | SecretBox
  | SecureRandom.SecureRandom
  | Transactor
  | WebhookTransport
  | ImportProcessingServices
  | WhatsAppInbox
  | WhatsAppWebhookServices
  | TemplateReviewServices
  | MediaFetchLoopServices

/** How the worker runs: batch sizes, concurrency and the intervals of its loops. Every field has a default. */
export interface DeliveryWorkerOptions {
  /** Outbox events per fan-out transaction. Default 200. */
  readonly fanOutBatch?: number | undefined
  /** Attempts in flight at once. Default 128. */
  readonly concurrency?: number | undefined
  /** Deliveries per claim. Default 64. */
  readonly claimBatch?: number | undefined
  /** The longest any loop sleeps without a signal. Default 1 s. */
  readonly pollInterval?: Duration.Duration | undefined
  /**
   * The lease of claimed outbox events. Default 15 s: a fan-out transaction takes milliseconds,
   * and the lease is how long a crashed worker's claimed events wait to be fanned out again.
   */
  readonly outboxLease?: Duration.Duration | undefined
  /** Queued mails per `sendPendingEmails`. Default 20. */
  readonly mailBatch?: number | undefined
  /**
   * How often stale OTP reservations are swept. Default 30 s: a stale one waits at most this long
   * beyond `OTP_RESERVATION_SAFE_AFTER` for its refund.
   */
  readonly otpSweepInterval?: Duration.Duration | undefined
  /**
   * Rows per pruning statement (per kind). Default 500: a batch of deliveries (with their
   * attempts) holds its row locks some tens of milliseconds (bench/README.md).
   */
  readonly pruneBatch?: number | undefined
  /**
   * The pause between pruning rounds, once a round found nothing more to prune. Default 1 minute:
   * rows are kept at most this long beyond their retention.
   */
  readonly pruneInterval?: Duration.Duration | undefined
  /** Rows of a CSV import written per transaction. Default 500. */
  readonly importBatch?: number | undefined
  /**
   * How long an import stays claimed for its batch. Default 1 minute: a worker that stops
   * mid-batch leaves its import this long before another worker goes on with it.
   */
  readonly importLease?: Duration.Duration | undefined
  /** Stored WhatsApp callbacks per claim. Default 32. */
  readonly whatsappBatch?: number | undefined
  /** Stored WhatsApp callbacks processed at once. Default 8. */
  readonly whatsappConcurrency?: number | undefined
  /**
   * How long a claimed WhatsApp callback stays claimed. Default 1 minute: processing one takes
   * milliseconds (a media download, seconds); a worker that stops mid-batch leaves its callbacks
   * this long before another takes them.
   */
  readonly whatsappLease?: Duration.Duration | undefined
  /**
   * How often every submitted template's review is read again from Meta. Default 15 minutes: a
   * review webhook that never arrived is made up for within that time.
   */
  readonly templateSyncInterval?: Duration.Duration | undefined
  /** The media fetch of received messages: the largest file kept, batch, tries. */
  readonly media?: MediaFetchOptions | undefined
  /** Campaign sends: each sending number's pace (`WASL_WHATSAPP_SEND_RATE`), sends in flight, rounds. */
  readonly campaigns?: CampaignRunOptions | undefined
}

/** OTP reservations per sweep statement. */
const OTP_SWEEP_BATCH = 100

/** Attempts per recording statement. */
const RECORD_BATCH = 256

/** The names of the loops (in logs and `WorkerLoops`) that beat within a round. */
const FAN_OUT = "outbox fan-out"
const MAIL = "notification mail"
const OTP_SWEEP = "OTP reservation sweep"
const PRUNING = "pruning"
const EXPORTS = "CSV exports"
const CAMPAIGNS = "campaigns"
const IMPORTS = "CSV imports"
const WHATSAPP = "WhatsApp callbacks"
const MEDIA = "media fetch"
const TEMPLATE_SYNC = "template review sync"

/** The pause after a loop iteration failed. */
const FAILURE_PAUSE = Duration.seconds(1)

/**
 * Repeats `step` forever; a failure or defect is logged and followed by a pause. With `WorkerLoops`
 * the loop beats after each round that succeeded (a loop that only fails makes no progress) and is
 * marked stopped when its fiber ends; `longestWait` is the longest a healthy round waits. Not
 * traced: an idle worker polls every second, and a trace per poll would bury the attempts (which
 * are traced, see `attemptSpan`).
 */
const forever = <R>(
  loops: Option.Option<WorkerLoopsShape>,
  name: string,
  longestWait: Duration.Duration,
  step: Effect.Effect<void, unknown, R>
) =>
  Option.match(loops, {
    onNone: () => Effect.void,
    onSome: (registry) => registry.start(name, longestWait)
  }).pipe(
    Effect.andThen(Effect.forever(
      step.pipe(
        Effect.andThen(Option.match(loops, { onNone: () => Effect.void, onSome: (registry) => registry.beat(name) })),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError(`${name} failed; retrying`, cause).pipe(Effect.andThen(Effect.sleep(FAILURE_PAUSE)))
        )
      )
    )),
    Effect.onExit(() => Option.match(loops, { onNone: () => Effect.void, onSome: (registry) => registry.stop(name) })),
    Effect.withTracerEnabled(false)
  )

/** Waits for the latch to open or the duration to pass. */
const waitFor = (latch: Latch.Latch, duration: Duration.Duration) =>
  Effect.raceFirst(latch.await, Effect.sleep(duration))

/**
 * An attempt's span: a client span naming the delivery, its webhook and event, which the attempt's
 * log lines carry. Its parent is the span that committed the delivery's event (the trace context
 * the outbox kept, `ClaimedDelivery.traceParent`), so the attempt shows in the trace of the request
 * that caused it — retries too, hours later: a trace is what one request caused, and a trace id is
 * looked up, not waited for. A delivery without one (traces were not exported when its event was
 * committed, or a redelivery) is a trace of its own, as is one whose stored text is not a
 * `traceparent`: the worker's loop is no request.
 */
const attemptSpan = (delivery: ClaimedDelivery) =>
  Effect.withSpan("webhook.delivery.attempt", {
    root: true,
    parent: delivery.traceParent === undefined ? undefined : Option.getOrUndefined(traceParentSpan(delivery.traceParent)),
    kind: "client",
    attributes: {
      "wasl.account.id": delivery.accountId,
      "wasl.delivery.id": delivery.id,
      "wasl.webhook.id": delivery.webhookId,
      "wasl.event.name": delivery.event
    }
    // The span names its delivery; its call site, the same for every attempt, would cost a stack
    // trace per attempt (about 1 % of the worker's CPU at saturation).
  }, { captureStackTrace: false })

/** How the attempt went, on its span: the attempt's number, the answer's status, the outcome. */
const annotateAttemptSpan = (pending: PendingAttempt) =>
  Effect.annotateCurrentSpan({
    "wasl.delivery.outcome": pending.outcome,
    ...(pending.record.attempt === null ? {} : {
      "wasl.delivery.attempt": pending.record.attempt.number,
      ...(pending.record.attempt.statusCode === null ? {} : { "http.response.status_code": pending.record.attempt.statusCode })
    })
  })

/**
 * Runs the worker's loops until the scope closes. Needs the core's ports: Outbox,
 * DeliveryRepository, Transactor, SecretBox, WebhookTransport, NotificationRepository, Mailer,
 * QueueSignals, SecureRandom, OtpReservationRepository, Retention, WhatsAppInbox (and what
 * `processWhatsAppWebhook` needs, `WhatsAppWebhookServices`), TemplateReview (the template
 * review sync, `TemplateReviewServices`), and for imports
 * ImportRepository, PropertyRepository, RecordRepository and UserRepository (and DeliveryPolicy and
 * RetentionPolicy, which default to the documented delivery settings and the standard retention).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { WaslMemory } from "@wasl/adapters/memory"
 * import { runDeliveryWorker } from "@wasl/worker"
 *
 * // The worker for as long as the scope is open; it never fails (a failing loop is logged and retried).
 * const program = Effect.scoped(Effect.andThen(runDeliveryWorker({ concurrency: 16 }), Effect.never))
 * Effect.runFork(program.pipe(Effect.provide(WaslMemory.layer())))
 * ```
 */
export const runDeliveryWorker = (
  options: DeliveryWorkerOptions = {}
): Effect.Effect<void, never, DeliveryWorkerServices | Scope.Scope> =>
  Effect.gen(function*() {
    const fanOutBatch = options.fanOutBatch ?? 200
    const concurrency = options.concurrency ?? 128
    const claimBatch = options.claimBatch ?? 64
    const poll = options.pollInterval ?? Duration.seconds(1)
    const outboxLease = options.outboxLease ?? Duration.seconds(15)
    const mailBatch = options.mailBatch ?? 20
    const otpSweepInterval = options.otpSweepInterval ?? Duration.seconds(30)
    const pruneBatch = options.pruneBatch ?? 500
    const pruneInterval = options.pruneInterval ?? Duration.minutes(1)
    const templateSyncInterval = options.templateSyncInterval ?? Duration.minutes(15)
    const repo = yield* DeliveryRepository
    const signals = yield* QueueSignals
    const { timeout } = yield* DeliveryPolicy
    const deliveryLease = deliveryLeaseFor(timeout)
    const loops = yield* Effect.serviceOption(WorkerLoops)
    // Read before the loops turn tracing off: attempts are traced only where the worker is (a
    // process without an exporter turns tracing off, and its attempts' spans would go nowhere).
    const tracing = yield* References.TracerEnabled
    /** Progress within a long round (a backlog drained batch after batch) counts as a heartbeat. */
    const beat = (name: string) => Option.match(loops, { onNone: () => Effect.void, onSome: (registry) => registry.beat(name) })

    const outboxWake = yield* Latch.make(true)
    const sendWake = yield* Latch.make(true)
    const mailWake = yield* Latch.make(true)
    yield* signals.subscribe("outbox", outboxWake.open)
    yield* signals.subscribe("deliveries", sendWake.open)
    const whatsappWake = yield* Latch.make(true)
    yield* signals.subscribe("whatsapp", whatsappWake.open)

    // fan-out -------------------------------------------------------------------------------
    const fanOutStep = Effect.gen(function*() {
      yield* outboxWake.close
      while (true) {
        const result = yield* fanOutEvents(fanOutBatch, outboxLease)
        yield* beat(FAN_OUT)
        if (result.deliveries > 0) yield* sendWake.open
        if (result.events < fanOutBatch) break
      }
      yield* waitFor(outboxWake, poll)
    })

    // sending -------------------------------------------------------------------------------
    // Attempts run in their own fibers; their results go to `finished`, which one recorder fiber
    // drains in batches (one statement for all but exhausting attempts), so the cost of recording
    // is shared by the attempts that finish together.
    const finished = yield* Queue.unbounded<PendingAttempt>()
    // Stopping: attempts already made are recorded rather than sent again by the next claimer.
    // (Added before the attempts' FiberSet, so it runs after the attempts in flight are interrupted.)
    yield* Effect.addFinalizer(() => Effect.flatMap(Queue.clear(finished), (rest) => rest.length === 0 ? Effect.void : record(rest)))
    const attempts = yield* FiberSet.make()
    const signerFor = yield* makeSignerCache()
    let inFlight = 0
    /** Attempts this worker made (reported when it stops). */
    let sent = 0

    const attempt = (delivery: ClaimedDelivery) =>
      sendAttempt(delivery, signerFor).pipe(
        Effect.tap(annotateAttemptSpan),
        Effect.flatMap((pending) => Effect.andThen(Effect.sync(() => sent++), Queue.offer(finished, pending))),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("delivery attempt failed", cause).pipe(
              Effect.annotateLogs({ delivery_id: delivery.id }),
              // Let it come due again now rather than at the end of its lease.
              Effect.andThen(repo.release([leaseOf(delivery)])),
              Effect.andThen(done(1))
            )
        ),
        attemptSpan(delivery),
        // Started from the untraced sending loop.
        Effect.withTracerEnabled(tracing),
        // Stopping: the attempt's result will not be recorded; free the delivery for another worker.
        Effect.onInterrupt(() => Effect.andThen(repo.release([leaseOf(delivery)]), done(1)))
      )

    /** `n` attempts are over (recorded, released or dropped): their slots are free again. */
    const done = (n: number) => Effect.andThen(Effect.sync(() => (inFlight -= n)), sendWake.open)

    const record = (batch: ReadonlyArray<PendingAttempt>) =>
      recordAttempts(batch).pipe(
        Effect.tap((results) => (results.includes("Exhausted") ? mailWake.open : Effect.void)),
        Effect.tap((results) => recordAttemptMetrics(batch, results)),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("recording delivery attempts failed", cause).pipe(
              // Unrecorded: their leases run out and the deliveries are attempted again.
              Effect.andThen(repo.release(batch.map((p) => p.record.lease)))
            )
        ),
        Effect.ensuring(done(batch.length))
      )

    // Idle, it comes round every poll interval all the same, so its heartbeat shows it alive.
    const recordStep = Queue.takeBetween(finished, 1, RECORD_BATCH).pipe(
      Effect.timeoutOption(poll),
      Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: record }))
    )

    const sendStep = Effect.gen(function*() {
      yield* sendWake.close
      while (true) {
        const free = concurrency - inFlight
        // Claim in batches: while many attempts are in flight, wait for a batch's worth of free
        // slots rather than run a claim query for every attempt that finishes.
        if (free <= 0 || (free < Math.min(claimBatch, concurrency / 2) && inFlight > 0)) break
        const want = Math.min(free, claimBatch)
        const claimed = yield* repo.claimDue(want, deliveryLease)
        for (const delivery of claimed) {
          inFlight++
          yield* FiberSet.run(attempts, attempt(delivery))
        }
        if (claimed.length < want) break
      }
      if (concurrency - inFlight < Math.min(claimBatch, concurrency / 2)) return yield* sendWake.await
      const next = yield* repo.nextDueAt
      const now = yield* Clock.currentTimeMillis
      const untilDue = Option.match(next, {
        onNone: () => poll,
        onSome: (at) => Duration.millis(Math.max(0, DateTime.toEpochMillis(at) - now))
      })
      yield* waitFor(sendWake, Duration.min(untilDue, poll))
    })

    // mail ----------------------------------------------------------------------------------
    const mailStep = Effect.gen(function*() {
      yield* mailWake.close
      while ((yield* sendPendingEmails(mailBatch)) === mailBatch) {
        // a full batch: there may be more
        yield* beat(MAIL)
      }
      yield* waitFor(mailWake, poll)
    })

    // OTP reservations --------------------------------------------------------------------
    const otpSweepStep = Effect.gen(function*() {
      while ((yield* sweepOtpReservations(OTP_SWEEP_BATCH)) === OTP_SWEEP_BATCH) {
        // a full batch: there may be more
        yield* beat(OTP_SWEEP)
      }
      yield* Effect.sleep(otpSweepInterval)
    })

    // pruning -----------------------------------------------------------------------------
    const pruneStep = Effect.gen(function*() {
      while (Object.values(yield* pruneExpired(pruneBatch)).some((n) => n >= pruneBatch)) {
        // a full batch: there may be more
        yield* beat(PRUNING)
      }
      yield* Effect.sleep(pruneInterval)
    })

    // exports ------------------------------------------------------------------------------
    const exportStep = Effect.gen(function*() {
      while (yield* runNextExport()) {
        // a batch written: there may be another, of whichever account's turn it is
        yield* beat(EXPORTS)
      }
      yield* Effect.sleep(poll)
    })

    // campaigns -----------------------------------------------------------------------------
    const campaigns = makeCampaignRunner(options.campaigns)
    const campaignStep = Effect.gen(function*() {
      while (yield* campaigns.runNext) {
        // a step done: there may be another, of whichever campaign's turn it is
        yield* beat(CAMPAIGNS)
      }
      yield* Effect.sleep(poll)
    })

    // imports -------------------------------------------------------------------------------
    const importOptions = { batch: options.importBatch, lease: options.importLease }
    const importStep = Effect.gen(function*() {
      while (yield* processNextImport(importOptions)) {
        // a batch written: there may be another, of whichever account's turn it is
        yield* beat(IMPORTS)
      }
      yield* Effect.sleep(poll)
    })

    // WhatsApp callbacks -----------------------------------------------------------------------
    const whatsappOptions = {
      batch: options.whatsappBatch ?? 32,
      concurrency: options.whatsappConcurrency ?? 8,
      lease: options.whatsappLease ?? Duration.minutes(1)
    }
    // What a callback held is counted once it is processed: a retried one is counted by the attempt that succeeds.
    const processAndCount = (body: string, receivedAt: DateTime.Utc) =>
      Effect.tap(processWhatsAppWebhook(body, receivedAt), recordWhatsAppWebhookSummary)
    const whatsappStep = Effect.gen(function*() {
      yield* whatsappWake.close
      while (true) {
        const result = yield* drainWhatsAppInbox(whatsappOptions, processAndCount)
        yield* recordWhatsAppDrainMetrics(result)
        yield* beat(WHATSAPP)
        if (result.claimed < whatsappOptions.batch) break
      }
      yield* waitFor(whatsappWake, poll)
    })

    // template reviews ------------------------------------------------------------------------
    const templateSyncStep = Effect.andThen(syncAllTemplateReviews, Effect.sleep(templateSyncInterval))

    // media ---------------------------------------------------------------------------------
    const mediaRound = yield* makeMediaFetchRound(options.media)
    const mediaStep = Effect.gen(function*() {
      while ((yield* mediaRound) === (options.media?.batch ?? 16)) yield* beat(MEDIA)
      yield* Effect.sleep(poll)
    })

    yield* Effect.forkScoped(forever(loops, FAN_OUT, poll, fanOutStep))
    yield* Effect.forkScoped(forever(loops, WHATSAPP, poll, whatsappStep))
    yield* Effect.forkScoped(forever(loops, MEDIA, poll, mediaStep))
    yield* Effect.forkScoped(forever(loops, IMPORTS, poll, importStep))
    // A full send loop waits for a free slot: at most an attempt's timeout.
    yield* Effect.forkScoped(forever(loops, "delivery sending", Duration.max(poll, timeout), sendStep))
    yield* Effect.forkScoped(forever(loops, "delivery recording", poll, recordStep))
    yield* Effect.forkScoped(forever(loops, MAIL, poll, mailStep))
    yield* Effect.forkScoped(forever(loops, OTP_SWEEP, otpSweepInterval, otpSweepStep))
    yield* Effect.forkScoped(forever(loops, PRUNING, pruneInterval, pruneStep))
    yield* Effect.forkScoped(forever(loops, TEMPLATE_SYNC, templateSyncInterval, templateSyncStep))
    yield* Effect.forkScoped(forever(loops, EXPORTS, poll, exportStep))
    // A step of a running campaign is a round of sends, a few seconds, and its in-flight sends.
    yield* Effect.forkScoped(forever(loops, CAMPAIGNS, Duration.sum(poll, Duration.seconds(30)), campaignStep))
    yield* Effect.addFinalizer(() =>
      Effect.logInfo("Wasl delivery worker stopped").pipe(Effect.annotateLogs({ attempts: sent }))
    )
    yield* Effect.logInfo("Wasl delivery worker started")
  })

/**
 * The delivery worker for the life of the layer: merge it into a host's application (beside
 * Wasl's routes, or alone) over a Wasl services layer. Closing the layer's scope (SIGTERM)
 * stops the loops and releases the deliveries in flight for another worker.
 */
export const DeliveryWorkerLive = (options: DeliveryWorkerOptions = {}): Layer.Layer<never, never, DeliveryWorkerServices> =>
  Layer.effectDiscard(runDeliveryWorker(options))
