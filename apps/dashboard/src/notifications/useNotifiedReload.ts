/**
 * Keeps a view current: `reload` on each notification of the stream that `concerns` it, and every
 * `everyMs` for what the stream does not carry.
 */
import { useEffect, useRef } from "react"
import type { Schemas } from "../api/client"
import { onNotification } from "./notificationEvents"

export const useNotifiedReload = (
  reload: () => void,
  concerns: (notification: Schemas["Notification"]) => boolean,
  everyMs: number,
  inputs: ReadonlyArray<unknown>
): void => {
  const latest = useRef({ reload, concerns })
  latest.current = { reload, concerns }
  useEffect(() => {
    const stop = onNotification((notification) => {
      if (latest.current.concerns(notification)) latest.current.reload()
    })
    const timer = setInterval(() => latest.current.reload(), everyMs)
    return () => {
      stop()
      clearInterval(timer)
    }
  }, [everyMs, ...inputs])
}
