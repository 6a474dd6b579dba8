/** Who is signed in (`GET /api/me`), sign-in and sign-out with the first-party session cookie. */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react"
import { api, type Schemas, SIGNED_OUT_EVENT } from "../api/client"
import { problemOf, type Problem } from "../api/errors"

export interface Session {
  /** The current user, undefined while loading, null when signed out. */
  readonly me: Schemas["CurrentUser"] | null | undefined
  readonly refresh: () => Promise<void>
  /** Signs in; "two-factor" when the account asks for a code next (`completeTwoFactor`). */
  readonly signIn: (email: string, password: string) => Promise<Problem | "two-factor" | undefined>
  /** The second step of a sign-in with two-factor on: a code of the authenticator or a recovery code. */
  readonly completeTwoFactor: (answer: { readonly code: string } | { readonly recovery_code: string }) => Promise<Problem | undefined>
  readonly signOut: () => Promise<void>
}

const SessionContext = createContext<Session | undefined>(undefined)

export const SessionProvider = ({ children }: { readonly children: ReactNode }) => {
  const [me, setMe] = useState<Schemas["CurrentUser"] | null | undefined>(undefined)
  const refresh = useCallback(async () => {
    const { data } = await api.GET("/api/me")
    setMe(data ?? null)
  }, [])
  useEffect(() => void refresh(), [refresh])
  // Any 401 means the session is gone: back to the sign-in page.
  useEffect(() => {
    const signedOut = () => setMe(null)
    window.addEventListener(SIGNED_OUT_EVENT, signedOut)
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signedOut)
  }, [])
  const signIn = useCallback(async (email: string, password: string) => {
    const { data, error } = await api.POST("/api/auth/login", { body: { email, password } })
    if (error) return problemOf(error)
    if (data !== undefined && "two_factor" in data && data.two_factor === true) return "two-factor" as const
    await refresh()
    return undefined
  }, [refresh])
  const completeTwoFactor = useCallback(async (answer: { readonly code: string } | { readonly recovery_code: string }) => {
    const { error } = await api.POST("/api/auth/two-factor", { body: answer })
    if (error) return problemOf(error)
    await refresh()
    return undefined
  }, [refresh])
  const signOut = useCallback(async () => {
    await api.POST("/api/auth/logout")
    setMe(null)
  }, [])
  return <SessionContext.Provider value={{ me, refresh, signIn, completeTwoFactor, signOut }}>{children}</SessionContext.Provider>
}

export const useSession = (): Session => {
  const value = useContext(SessionContext)
  if (value === undefined) throw new Error("useSession outside SessionProvider")
  return value
}

/** The signed-in user (for pages shown only when signed in). */
export const useMe = (): Schemas["CurrentUser"] => {
  const { me } = useSession()
  if (!me) throw new Error("useMe while signed out")
  return me
}
