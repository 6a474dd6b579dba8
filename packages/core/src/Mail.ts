/**
 * The Mailer port.
 *
 * @module
 */
export * from "./mail/mailer.ts"
