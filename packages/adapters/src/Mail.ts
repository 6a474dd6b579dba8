/**
 * Mailers: SMTP (with its URL), and JSON lines to a file.
 *
 * @module
 */
export * from "./mail/mailer-json-lines.ts"
export * from "./mail/mailer-smtp.ts"
export * from "./mail/smtp-url.ts"
