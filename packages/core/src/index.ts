/**
 * Wasl's domain as a library, pure Effect (no Node modules; runs on Node and Deno), as namespaces
 * by resource, in Effect's style: `import { Records, Webhooks } from "@wasl/core"`, then
 * `Records.createRecord(...)`, `Webhooks.signDelivery(...)`. Each namespace is also its own entry
 * point (`import { createRecord } from "@wasl/core/Records"`), which is how Wasl's other packages
 * import it. Each holds, for its resource:
 *
 * - the use-cases (records and their lists, links, notes and batches; custom properties and
 *   groups; webhooks and deliveries; WhatsApp messaging, conversations and managed OTP;
 *   authentication, tokens, sessions, two-factor, notifications, bootstrap, pruning);
 * - the ports they need (`...Repository`, `Outbox`, `Transactor`, `WebhookTransport`,
 *   `MessagingProvider`, `Mailer`, `SecretBox`, `TokenHasher`, ...), each a `Context.Service` with
 *   its `...Shape` to implement; `Deployment.WaslServices` names them all;
 * - the schemas, state machines and rules.
 *
 * `Errors` holds the typed domain errors and `Wire` the wire forms shared with the HTTP package
 * (record ids, timestamps). Property-test helpers and reference models are at
 * `@wasl/core/testing`; adapters of the ports at `@wasl/adapters`.
 *
 * @module
 */

/** Accounts, their users and teams, plans, the current user, bootstrap and the first run. */
export * as Accounts from "./Accounts.ts"
/**
 * Authentication: principals, permissions and token abilities, API tokens, sessions, passwords,
 * two-factor (TOTP and recovery codes), rate limits, the sealed secrets.
 */
export * as Auth from "./Auth.ts"
/**
 * Webhook deliveries: states, retry policy, requests, the backlog and repository, the delivery log
 * and recovery.
 */
export * as Deliveries from "./Deliveries.ts"
/**
 * What a deployment provides: the Transactor, the services Wasl needs (`WaslServices`), readiness,
 * the public URL, durations as written in settings.
 */
export * as Deployment from "./Deployment.ts"
/** The typed domain errors. */
export * as Errors from "./errors.ts"
/** The transactional outbox of events, queue signals and trace context. */
export * as Events from "./Events.ts"
/** CSV exports: requests, files and cells, their repository and the export run. */
export * as Exports from "./Exports.ts"
/** Idempotency keys: the store and its rules. */
export * as Idempotency from "./Idempotency.ts"
/** CSV imports: uploads, jobs and limits, their repository and processing. */
export * as Imports from "./Imports.ts"
/** The Mailer port. */
export * as Mail from "./Mail.ts"
/**
 * WhatsApp messaging: sending numbers, templates and broadcasts, messages and their statuses,
 * contact channels, conversations, media, the provider port, sends.
 */
export * as Messaging from "./Messaging.ts"
/** Notes on records: the note, its repository and use-cases. */
export * as Notes from "./Notes.ts"
/**
 * Notifications: the notification types, members' channel preferences, the stored feed and
 * its stream, the mails.
 */
export * as Notifications from "./Notifications.ts"
/** Managed one-time passwords: codes, verifications, reservations and credits, the OTP sends. */
export * as Otp from "./Otp.ts"
/**
 * Records of the six kinds: object kinds, built-in and custom properties, property groups, values
 * and their validation, the list query and `complex_filters`, links, batches, the record use-cases.
 */
export * as Records from "./Records.ts"
/** Retention: how long each kind of row is kept, and the pruning. */
export * as Retention from "./Retention.ts"
/**
 * Webhooks: their states, URLs and the address policy, event names and bodies, signatures
 * (`X-Wasl-Signature`, Standard Webhooks), the receiver helpers, the use-cases.
 */
export * as Webhooks from "./Webhooks.ts"
/**
 * Meta's WhatsApp Cloud API webhooks: the signature, the payload shapes, the inbox of stored
 * callbacks and their processing.
 */
export * as WhatsApp from "./WhatsApp.ts"
/**
 * Wire forms shared with the HTTP side: record ids, timestamps, civil times, CSV formula guards,
 * validation messages and text rules.
 */
export * as Wire from "./Wire.ts"
