/**
 * Follows a background job: loads it now, then again every second until `settled` says it has
 * ended (or a load answers nothing, e.g. a 404), so a finished job costs no more requests.
 */
import { useEffect, useState } from "react"

const EVERY_MS = 1000

export const usePolled = <A,>(load: () => Promise<A | undefined>, settled: (value: A) => boolean, inputs: ReadonlyArray<unknown>) => {
  const [data, setData] = useState<A | undefined>(undefined)
  useEffect(() => {
    let current = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = async () => {
      const value = await load()
      if (!current) return
      setData(value)
      if (value !== undefined && !settled(value)) timer = setTimeout(tick, EVERY_MS)
    }
    void tick()
    return () => {
      current = false
      clearTimeout(timer)
    }
    // `load` and `settled` are new closures each render; the inputs decide a restart.
  }, inputs)
  return data
}
