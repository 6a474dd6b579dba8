/**
 * WhatsApp providers: the Cloud API, the sandbox and its webhook bodies, the live provider choosing
 * between them.
 *
 * @module
 */
export * from "./messaging/messaging-provider-live.ts"
export * from "./messaging/messaging-provider-sandbox.ts"
export * from "./messaging/sandbox-webhook-bodies.ts"
export * from "./messaging/messaging-provider-whatsapp-cloud.ts"
