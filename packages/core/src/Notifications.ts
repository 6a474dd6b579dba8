/**
 * Notifications: the notification types, members' channel preferences, the stored feed and its
 * stream, the mails.
 *
 * @module
 */
export * from "./account/notification-feed.ts"
export * from "./account/notification-notices.ts"
export * from "./account/notification-repository.ts"
export * from "./account/notification.ts"
export * from "./use-cases/notifications.ts"
export * from "./use-cases/notification-stream.ts"
export * from "./use-cases/notify.ts"
