/**
 * The pages the e-mail mails link to: `/email/confirm?token=…` (a new address, from
 * `PUT /api/me/email`) and `/email/verify?token=…` (the current one). The token is sent when the
 * reader presses the button, not on load, so a mail scanner opening the link uses nothing up.
 */
import { useState } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { useSession } from "../session/session"
import { LinkFrame } from "./LinkFrame"

const ENDPOINTS = { confirm: "/api/me/email/confirm", verify: "/api/me/email/verify/confirm" } as const

export const EmailLinkPage = ({ purpose, search }: { readonly purpose: keyof typeof ENDPOINTS; readonly search: string }) => {
  const { t } = useI18n()
  const { me, refresh } = useSession()
  const token = new URLSearchParams(search).get("token") ?? ""
  const [problem, setProblem] = useState<Problem | undefined>()
  const [done, setDone] = useState<string | undefined>()
  const follow = async () => {
    const { data, error } = await api.POST(ENDPOINTS[purpose], { body: { token } })
    setProblem(problemOf(error))
    if (data) {
      setDone(data.message)
      if (me) await refresh()
    }
  }
  return (
    <LinkFrame title={purpose === "confirm" ? t("confirmEmailTitle") : t("verifyEmailTitle")}>
      {done !== undefined ? <p role="status">{done}</p> : (
        <>
          <p>{purpose === "confirm" ? t("confirmEmailText") : t("verifyEmailText")}</p>
          {problem && <p className="problem" role="alert">{fieldError(problem, "token") ?? fieldError(problem, "email") ?? problem.message}</p>}
          <button type="button" className="primary" onClick={follow}>{purpose === "confirm" ? t("confirmEmail") : t("verifyEmail")}</button>
        </>
      )}
    </LinkFrame>
  )
}
