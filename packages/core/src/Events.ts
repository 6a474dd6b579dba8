/**
 * The transactional outbox of events, queue signals and trace context.
 *
 * @module
 */
export * from "./events/outbox.ts"
export * from "./events/trace-parent.ts"
export * from "./events/queue-signals.ts"
