/** Loads data when its inputs change, with a `reload` for after a change. */
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...inputs, version])
  const reload = useCallback(() => setVersion((n) => n + 1), [])
  return { data, reload }
}
