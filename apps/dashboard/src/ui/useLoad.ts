/**
 * Loads data when its inputs change, with a `reload` for after a change. An answer that arrives
 * after the inputs changed again is dropped, so a slow request never overwrites a newer one.
 */
import { useCallback, useEffect, useState } from "react"

export const useLoad = <A,>(load: () => Promise<A>, inputs: ReadonlyArray<unknown>) => {
  const [data, setData] = useState<A | undefined>(undefined)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let current = true
    void load().then((value) => {
      if (current) setData(value)
    })
    return () => {
      current = false
    }
    // `load` is a new closure each render; the inputs it reads are what decide a reload.
  }, [...inputs, version])
  const reload = useCallback(() => setVersion((n) => n + 1), [])
  return { data, reload }
}
