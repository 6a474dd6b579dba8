/**
 * Keeps an inbox view current: `reload` on each `IncomingMessage` of the notification stream
 * (only those of `contactId` when given), and every 15 seconds for what the stream does not
 * carry (delivery ticks, replies sent by colleagues).
 */
import { useNotifiedReload } from "../notifications/useNotifiedReload"

const EVERY_MS = 15_000

export const useLiveReload = (reload: () => void, contactId?: string): void =>
  useNotifiedReload(reload, (notification) => {
    if (notification.type !== "IncomingMessage") return false
    const about = (notification.data as { contact_id?: string }).contact_id
    return contactId === undefined || about === contactId
  }, EVERY_MS, [contactId])
