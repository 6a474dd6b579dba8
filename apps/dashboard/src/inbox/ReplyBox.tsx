/**
 * A free-form reply. Outside WhatsApp's 24-hour window only a template may be sent: the box is
 * disabled and says so; the API's refusal (a 422 on `text`) shows on the field.
 */
import { type FormEvent, useEffect, useState } from "react"
import { api } from "../api/client"
import { fieldError, problemOf, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"
import { ProblemMessage } from "../ui/ProblemMessage"
import { isWindowOpen, msUntilClosed } from "./replyWindow"

/** Re-renders when the window closes, so an open box disables itself at that moment. */
const useWindowOpen = (expiresAt: string | null | undefined): boolean => {
  const [, setTick] = useState(0)
  useEffect(() => {
    const ms = msUntilClosed(expiresAt, Date.now())
    if (ms === 0) return
    const timer = setTimeout(() => setTick((n) => n + 1), Math.min(ms + 50, 2 ** 31 - 1))
    return () => clearTimeout(timer)
  }, [expiresAt])
  return isWindowOpen(expiresAt, Date.now())
}

export const ReplyBox = ({ contactId, windowExpiresAt, onSent }: {
  readonly contactId: string
  readonly windowExpiresAt: string | null | undefined
  readonly onSent: () => void
}) => {
  const { date, t } = useI18n()
  const open = useWindowOpen(windowExpiresAt)
  const [text, setText] = useState("")
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>()
  const send = async (event: FormEvent) => {
    event.preventDefault()
    setSending(true)
    const { error } = await api.POST("/api/contacts/{id}/messages", { params: { path: { id: contactId } }, body: { text } })
    setSending(false)
    setProblem(problemOf(error))
    if (!error) {
      setText("")
      onSent()
    }
  }
  const textError = fieldError(problem, "text")
  const hint = windowExpiresAt === undefined ? undefined : open ? t("windowOpenUntil", { time: date(windowExpiresAt) }) : t("windowClosed")
  return (
    <form className="reply" onSubmit={send}>
      <Field label={t("reply")} hint={hint} error={textError}>
        <textarea value={text} onChange={(e) => setText(e.target.value)} disabled={!open} dir="auto" />
      </Field>
      {textError === undefined && <ProblemMessage problem={problem} />}
      <button type="submit" className="primary" disabled={!open || sending}>{t("send")}</button>
    </form>
  )
}
