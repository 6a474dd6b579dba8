/**
 * Meta's WhatsApp Cloud API webhooks: the signature, the payload shapes, the inbox of stored
 * callbacks and their processing.
 *
 * @module
 */
export * from "./whatsapp/meta-signature.ts"
export * from "./whatsapp/meta-webhook-shape.ts"
export * from "./whatsapp/whatsapp-inbox.ts"
export * from "./whatsapp/whatsapp-webhook-settings.ts"
export * from "./messaging/template-webhook-payload.ts"
export * from "./use-cases/number-quality-update.ts"
export * from "./whatsapp/number-quality-update.ts"
export * from "./messaging/whatsapp-webhook-payload.ts"
export * from "./use-cases/whatsapp-webhook.ts"
export * from "./use-cases/whatsapp-inbox-drain.ts"
export * from "./use-cases/whatsapp-receive.ts"
