/** A value that follows another once it has stopped changing for `ms`: one search per pause, not per key. */
import { useEffect, useState } from "react"

export const useDebounced = <A,>(value: A, ms = 250): A => {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
