/**
 * Client-side routes under /app: the path after the base, changed with `navigate` or `<Link>`
 * (history API), so the browser's back button and deep links work (the server answers
 * index.html for every path under /app).
 */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from "react"

const BASE = "/app"
const CHANGE = "wasl:navigate"

const currentPath = (): string => window.location.pathname.slice(BASE.length) || "/"

export const navigate = (path: string): void => {
  window.history.pushState(null, "", `${BASE}${path}`)
  window.dispatchEvent(new Event(CHANGE))
}

/** The current path (without /app) and its query string. */
export const useLocation = (): { readonly path: string; readonly search: string } => {
  const [location, setLocation] = useState(() => ({ path: currentPath(), search: window.location.search }))
  useEffect(() => {
    const update = () => setLocation({ path: currentPath(), search: window.location.search })
    window.addEventListener("popstate", update)
    window.addEventListener(CHANGE, update)
    return () => {
      window.removeEventListener("popstate", update)
      window.removeEventListener(CHANGE, update)
    }
  }, [])
  return location
}

/** The named segments of `pattern` (e.g. `/:kind/:id`) in `path`, or undefined when it does not match. */
export const match = (pattern: string, path: string): Readonly<Record<string, string>> | undefined => {
  const wanted = pattern.split("/").filter(Boolean)
  const given = path.split("/").filter(Boolean)
  if (wanted.length !== given.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, segment] of wanted.entries()) {
    const value = decodeURIComponent(given[index]!)
    if (segment.startsWith(":")) params[segment.slice(1)] = value
    else if (segment !== value) return undefined
  }
  return params
}

export const Link = ({ to, ...rest }: { readonly to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) => {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a href={`${BASE}${to}`} onClick={onClick} {...rest} />
}
